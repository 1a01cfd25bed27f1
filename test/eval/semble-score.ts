// The semble benchmark's scoring rules (the kit's bench_common.py states them): binary gain,
// targets = relevant + secondary, path-suffix matching, a line span must overlap a target's
// span when both have one, hits are not de-duplicated by file; mean per repo, then the mean
// over repos (categories and languages averaged the same way).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export type Mode = "keyword" | "hybrid" | "vector";

export interface RepoSpec {
  name: string;
  language: string;
  url: string;
  revision: string;
  benchmark_root?: string | null;
}

interface Target {
  path: string;
  start: number | null;
  end: number | null;
}

export interface Task {
  repo: string;
  language: string;
  query: string;
  category: string;
  /** relevant first, then secondary; both count for NDCG, Recall@10 counts the relevant ones. */
  targets: Target[];
  relevantCount: number;
}

export interface RunResult {
  repo: string;
  query: string;
  results: Array<{ filePath: string; startLine?: number; endLine?: number }>;
}

export interface Score {
  ndcg: number;
  recall: number;
}

export interface RunScore {
  overall: Score;
  byCategory: Record<string, Score>;
  byLanguage: Record<string, Score>;
  byRepo: Record<string, Score>;
  perQuery: Array<{ repo: string; query: string; category: string; ndcg: number; recall: number; ranks: Array<number | null> }>;
}

const K = 10;

function inferCategory(query: string): string {
  if (!query.trim().includes(" ")) return "symbol";
  return query.toLowerCase().startsWith("how ") ? "architecture" : "semantic";
}

function parseTarget(raw: unknown): Target {
  if (typeof raw === "string") return { path: raw, start: null, end: null };
  const t = raw as { path: string; start_line?: number; end_line?: number };
  return { path: String(t.path), start: t.start_line ?? null, end: t.end_line ?? null };
}

/** The kit's tasks for the chosen repos, in its order (annotation files sorted by name). */
export function loadTasks(kit: string, specs: RepoSpec[]): Task[] {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const tasks: Task[] = [];
  for (const fn of readdirSync(join(kit, "annotations")).sort()) {
    if (!fn.endsWith(".json")) continue;
    const stem = fn.slice(0, -5);
    if (!byName.has(stem)) continue;
    const items = JSON.parse(readFileSync(join(kit, "annotations", fn), "utf8")) as Array<Record<string, unknown>>;
    for (const item of items) {
      const repo = (item.repo as string | undefined) ?? stem;
      const spec = byName.get(repo);
      if (!spec) continue;
      const rel = ((item.relevant as unknown[]) ?? []).map(parseTarget);
      const sec = ((item.secondary as unknown[]) ?? []).map(parseTarget);
      const query = String(item.query);
      tasks.push({
        repo,
        language: spec.language,
        query,
        category: typeof item.category === "string" ? item.category : inferCategory(query),
        targets: [...rel, ...sec],
        relevantCount: rel.length,
      });
    }
  }
  return tasks;
}

const normRel = (p: string) => p.replace(/\\/g, "/").replace(/^(\.\/)+/, "");

function pathMatches(absPath: string, target: string): boolean {
  const t = normRel(target);
  return absPath === t || absPath.endsWith(`/${t}`) || t.endsWith(`/${absPath}`);
}

function firstRank(results: RunResult["results"], repo: string, target: Target): number | null {
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    const p = normRel(r.filePath);
    const abs = p.startsWith("/") ? p : `/semble-bench/${repo}/${p}`;
    if (!pathMatches(abs, target.path)) continue;
    const s = r.startLine ?? null;
    const e = r.endLine ?? null;
    if (target.start === null || target.end === null || s === null || e === null) return i + 1;
    if (!(e < target.start || s > target.end)) return i + 1;
  }
  return null;
}

const dcg = (gains: number[]) => gains.reduce((a, g, i) => a + g / Math.log2(i + 2), 0);

function ndcg(ranks: Array<number | null>, nTargets: number): number {
  if (nTargets === 0) return 0;
  const gains = new Array<number>(K).fill(0);
  for (const r of ranks) if (r !== null && r >= 1 && r <= K) gains[r - 1] = 1;
  const ideal = dcg(new Array<number>(Math.min(K, nTargets)).fill(1));
  return ideal > 0 ? dcg(gains) / ideal : 0;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function scoreRun(tasks: Task[], specs: RepoSpec[], run: RunResult[]): RunScore {
  const byKey = new Map(run.map((r) => [`${r.repo}\t${r.query}`, r.results]));
  const perQuery: RunScore["perQuery"] = [];
  for (const t of tasks) {
    const results = (byKey.get(`${t.repo}\t${t.query}`) ?? []).slice(0, K);
    const ranks = t.targets.map((target) => firstRank(results, t.repo, target));
    const found = ranks.slice(0, t.relevantCount).filter((r) => r !== null && r <= K).length;
    perQuery.push({
      repo: t.repo,
      query: t.query,
      category: t.category,
      ndcg: ndcg(ranks, t.targets.length),
      recall: t.relevantCount ? found / t.relevantCount : 0,
      ranks,
    });
  }
  const repoScore = (repo: string, filter: (q: RunScore["perQuery"][number]) => boolean = () => true): Score | undefined => {
    const qs = perQuery.filter((q) => q.repo === repo && filter(q));
    return qs.length ? { ndcg: mean(qs.map((q) => q.ndcg)), recall: mean(qs.map((q) => q.recall)) } : undefined;
  };
  const meanOf = (scores: Array<Score | undefined>): Score => {
    const s = scores.filter((x): x is Score => x !== undefined);
    return { ndcg: mean(s.map((x) => x.ndcg)), recall: mean(s.map((x) => x.recall)) };
  };
  const repos = specs.map((s) => s.name).filter((n) => perQuery.some((q) => q.repo === n));
  const byRepo: Record<string, Score> = {};
  for (const r of repos) byRepo[r] = repoScore(r)!;
  const byCategory: Record<string, Score> = {};
  for (const c of [...new Set(tasks.map((t) => t.category))].sort()) byCategory[c] = meanOf(repos.map((r) => repoScore(r, (q) => q.category === c)));
  const byLanguage: Record<string, Score> = {};
  for (const l of [...new Set(specs.filter((s) => repos.includes(s.name)).map((s) => s.language))].sort()) {
    byLanguage[l] = meanOf(specs.filter((s) => s.language === l && repos.includes(s.name)).map((s) => byRepo[s.name]));
  }
  return { overall: meanOf(repos.map((r) => byRepo[r])), byCategory, byLanguage, byRepo, perQuery };
}
