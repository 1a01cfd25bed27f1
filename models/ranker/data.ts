// The collected candidates of the semble-dev queries (collect.ts writes them, train.ts reads
// them), and their replay as the ranking stage's input. Paths in records are relative to the
// indexed folder; `prefix` turns them into the checkout paths the annotations use.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ChunkRecord } from "../../core/types.js";
import { fuseCandidates } from "../../core/retrieval/fusion.js";
import type { RankCandidate } from "../../core/retrieval/rank.js";
import { VECTOR_POOL } from "../../core/retrieval/hybrid.js";


export interface Target {
  path: string;
  start: number | null;
  end: number | null;
}

export interface CollectedQuery {
  query: string;
  category: string;
  targets: Target[];
  relevantCount: number;
  /** [chunk id, score] best first, as the keyword and vector searches returned them. */
  keyword: Array<[string, number]>;
  vector: Array<[string, number]>;
  /** Chunk ids of the engine's default top 10 when collected. */
  engineTop: string[];
}

export interface CollectedRepo {
  repo: string;
  language: string;
  prefix: string;
  records: Record<string, ChunkRecord>;
  queries: CollectedQuery[];
}

export function loadCollected(dir: string): CollectedRepo[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as CollectedRepo);
}

export type Mode = "hybrid" | "keyword" | "vector";

/** The ranking stage's input for one query, as production fuses it (hybrid.ts), from any collection holding records by id. */
export function candidatesOf(
  repo: { records: Record<string, ChunkRecord> },
  q: Pick<CollectedQuery, "keyword" | "vector">,
  mode: Mode = "hybrid",
): RankCandidate[] {
  const kw = mode === "vector" ? [] : q.keyword;
  const vec = mode === "keyword" ? [] : q.vector;
  const ids = (hits: Array<[string, number]>) => hits.map(([id, score]) => ({ id, score }));
  const fused = fuseCandidates(ids(kw), ids(vec), { keyword: mode !== "vector", vector: mode !== "keyword", vectorK: VECTOR_POOL });
  return [...fused].map(([id, f]) => ({ record: repo.records[id], ...f }));
}

/** The first ten results as hybrid.ts returns them: overlapping chunks of one file dropped. */
export function topTen(ranked: RankCandidate[]): ChunkRecord[] {
  const kept = new Map<string, ChunkRecord[]>();
  const out: ChunkRecord[] = [];
  for (const c of ranked) {
    const list = kept.get(c.record.filePath) ?? [];
    if (list.some((k) => c.record.startLine <= k.endLine && k.startLine <= c.record.endLine)) continue;
    list.push(c.record);
    kept.set(c.record.filePath, list);
    out.push(c.record);
    if (out.length >= 10) break;
  }
  return out;
}

const normRel = (p: string) => p.replace(/\\/g, "/").replace(/^(\.\/)+/, "");

/** The kit's path rule (semble-score.ts): suffix match either way, spans must overlap when both have one. */
export function hitsTarget(repo: CollectedRepo, r: Pick<ChunkRecord, "filePath" | "startLine" | "endLine">, t: Target): boolean {
  const abs = `/semble-bench/${repo.repo}/${normRel(repo.prefix + r.filePath)}`;
  const p = normRel(t.path);
  if (!(abs === p || abs.endsWith(`/${p}`) || p.endsWith(`/${abs}`))) return false;
  if (t.start === null || t.end === null) return true;
  return !(r.endLine < t.start || r.startLine > t.end);
}

/** NDCG@10 as the kit scores it (binary gain, first hit of each target counts). */
export function ndcgAt10(repo: CollectedRepo, q: CollectedQuery, top: ChunkRecord[]): number {
  const gains = new Array<number>(10).fill(0);
  for (const t of q.targets) {
    const i = top.slice(0, 10).findIndex((r) => hitsTarget(repo, r, t));
    if (i >= 0) gains[i] = 1;
  }
  const dcg = (g: number[]) => g.reduce((a, x, i) => a + x / Math.log2(i + 2), 0);
  const ideal = dcg(new Array<number>(Math.min(10, q.targets.length)).fill(1));
  return ideal > 0 ? dcg(gains) / ideal : 0;
}
