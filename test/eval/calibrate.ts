// Calibrates the fusion and ranking weights on the dev benchmarks (never on held-out code).
// Step 1 collects, once, the keyword and vector candidates of every dev query through the
// engine (cached in test/.cache/eval/candidates.json); step 2 re-fuses and re-ranks them
// in-process for each weight setting (coordinate ascent), scoring the mean of natural-query
// NDCG@10 and docstring MRR@10. Run: node test/eval/calibrate.mjs [--refresh]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openEngine } from "../../core/engine.js";
import { silentLogger } from "../../core/logging/index.js";
import { loadSets, parseEvalArgs } from "../../cli/commands/eval.js";
import { rankCandidates, RANK_WEIGHTS, type RankCandidate, type RankWeights, type RankFeatureFlags } from "../../core/retrieval/rank.js";
import { scoreQuery } from "../../core/eval/metrics.js";
import { fuseCandidates } from "../../core/retrieval/fusion.js";
import type { ChunkRecord } from "../../core/types.js";
import type { EvalQuery } from "../../core/eval/types.js";

interface Hit {
  record: ChunkRecord;
  score: number;
}
interface Collected {
  query: EvalQuery;
  keyword: Hit[];
  vector: Hit[];
}

const root = process.cwd();
const cacheFile = join(root, "test", ".cache", "eval", "candidates.json");
const POOL = 40;
const CLEAN = new Set(
  (JSON.parse(readFileSync(join(root, "test", "eval", "corpora.json"), "utf8")).corpora as Array<{ name: string; inModelTraining: boolean }>)
    .filter((c) => !c.inModelTraining)
    .map((c) => c.name),
);

async function collect(): Promise<Collected[]> {
  const args = parseEvalArgs(["--suite", join(root, "test", "eval", "dev-suite.json")]);
  const out: Collected[] = [];
  for (const set of loadSets(args)) {
    const engine = await openEngine({ root: set.root, overrides: { retrieval: { maxChunks: POOL } }, logger: silentLogger });
    try {
      await engine.index();
      for (const q of set.queries) {
        const strip = (rs: Array<{ chunk: ChunkRecord; score: number }>) =>
          rs.map((r) => ({ record: { ...r.chunk, content: r.chunk.content }, score: r.score }));
        const keyword = strip(await engine.search(q.query, { topK: POOL, mode: "keyword", rank: false }));
        const vector = strip(await engine.search(q.query, { topK: POOL, mode: "vector", rank: false }));
        out.push({ query: q, keyword, vector });
      }
    } finally {
      await engine.close();
    }
    process.stderr.write(`collected ${set.name} ${set.root}\n`);
  }
  return out;
}

interface Params {
  rank: boolean;
  weights: Partial<RankWeights>;
  features?: Partial<RankFeatureFlags>;
  /** Candidates per source handed to fusion (production: max(4·topK, 40)). */
  fetch: number;
}

function fuse(c: Collected, p: Params, mode: "hybrid" | "keyword" | "vector"): RankCandidate[] {
  const kw = mode === "vector" ? [] : c.keyword.slice(0, p.fetch);
  const vec = mode === "keyword" ? [] : c.vector.slice(0, p.fetch);
  const records = new Map([...kw, ...vec].map((h) => [h.record.id, h.record]));
  const ids = (hits: Hit[]) => hits.map((h) => ({ id: h.record.id, score: h.score }));
  const fused = fuseCandidates(ids(kw), ids(vec), { keyword: mode !== "vector", vector: mode !== "keyword", vectorK: p.fetch });
  return [...fused].map(([id, f]) => ({ record: records.get(id) as ChunkRecord, ...f }));
}

function top10(cands: RankCandidate[]): Array<{ filePath: string; startLine: number; endLine: number }> {
  const kept = new Map<string, ChunkRecord[]>();
  const out = [];
  for (const c of cands) {
    const list = kept.get(c.record.filePath) ?? [];
    if (list.some((k) => c.record.startLine <= k.endLine && k.startLine <= c.record.endLine)) continue;
    list.push(c.record);
    kept.set(c.record.filePath, list);
    out.push({ filePath: c.record.filePath, startLine: c.record.startLine, endLine: c.record.endLine });
    if (out.length >= 10) break;
  }
  return out;
}

/** One query's scores under one setting, with the groups it counts in. */
function scoreOne(c: Collected, p: Params, mode: "hybrid" | "keyword" | "vector") {
  let cands = fuse(c, p, mode);
  cands = p.rank ? rankCandidates(c.query.query, cands, { weights: p.weights, features: p.features }) : cands.sort((a, b) => b.score - a.score);
  const s = scoreQuery(top10(cands), c.query.relevant);
  const groups = [c.query.set ?? "x", `${c.query.set}:${c.query.category}`];
  if (CLEAN.has(c.query.repo)) groups.push(`${c.query.set}-clean`);
  return { groups, ndcg: s.ndcg10, mrr: s.mrr10 };
}

/** Mean scores per group, and the calibration objective. */
function summarise(scores: Array<ReturnType<typeof scoreOne>>) {
  const acc: Record<string, { n: number; ndcg: number; mrr: number }> = {};
  for (const s of scores) {
    for (const g of s.groups) {
      const a = (acc[g] ??= { n: 0, ndcg: 0, mrr: 0 });
      a.n++;
      a.ndcg += s.ndcg;
      a.mrr += s.mrr;
    }
  }
  for (const a of Object.values(acc)) {
    a.ndcg /= a.n;
    a.mrr /= a.n;
  }
  // Docstring queries count only on code bases the bundled model was not trained on: on the
  // others its vectors have seen the very doc-to-code pairs, which would overrate them.
  const objective = (acc.natural?.ndcg ?? 0) + (acc["docstring-clean"]?.mrr ?? 0);
  return { objective, acc };
}

function evaluate(data: Collected[], p: Params, mode: "hybrid" | "keyword" | "vector" = "hybrid") {
  return summarise(data.map((c) => scoreOne(c, p, mode)));
}

function fmt(r: ReturnType<typeof evaluate>): string {
  return (
    `obj ${r.objective.toFixed(4)} | ` +
    Object.entries(r.acc)
      .map(([k, v]) => `${k} n${v.n} ndcg ${v.ndcg.toFixed(3)} mrr ${v.mrr.toFixed(3)}`)
      .join(" | ")
  );
}

async function main() {
  const refresh = process.argv.includes("--refresh");
  let data: Collected[];
  if (!refresh && existsSync(cacheFile)) data = JSON.parse(readFileSync(cacheFile, "utf8"));
  else {
    data = await collect();
    writeFileSync(cacheFile, JSON.stringify(data));
  }
  const base: Params = { rank: true, weights: {}, fetch: 40 };
  console.log("bm25        ", fmt(evaluate(data, { ...base, rank: false }, "keyword")));
  console.log("keyword+rank", fmt(evaluate(data, base, "keyword")));
  console.log("vector      ", fmt(evaluate(data, { ...base, rank: false }, "vector")));
  console.log("hybrid      ", fmt(evaluate(data, { ...base, rank: false })));
  console.log("hybrid+rank ", fmt(evaluate(data, base)));
  console.log("hybrid+rank-fusion", fmt(evaluate(data, { ...base, features: { fusion: false } })));
  {
    // Cost of the ranking stage alone, per query, on the fused candidate lists.
    const times: number[] = [];
    for (const c of data) {
      const cands = fuse(c, base, "hybrid");
      const t0 = performance.now();
      rankCandidates(c.query.query, cands);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const n = data.reduce((m, c) => m + fuse(c, base, "hybrid").length, 0) / data.length;
    console.log(`ranking stage: p50 ${times[Math.floor(times.length / 2)].toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(2)} ms over ${n.toFixed(0)} candidates per query`);
  }
  if (process.argv.includes("--dump")) {
    // The natural queries the current stack answers worst, with what it returned.
    for (const c of data) {
      if (c.query.set !== "natural") continue;
      const ranked = rankCandidates(c.query.query, fuse(c, base, "hybrid"));
      const top = top10(ranked);
      const s = scoreQuery(top, c.query.relevant);
      if (s.ndcg10 >= 0.7) continue;
      console.log(`\n${c.query.id} ndcg ${s.ndcg10.toFixed(2)} :: ${c.query.query}`);
      console.log(`  want: ${c.query.relevant.map((r) => `${r.filePath}:${r.startLine ?? ""}`).join(", ")}`);
      console.log(`  got : ${top.slice(0, 6).map((r) => `${r.filePath}:${r.startLine}`).join(", ")}`);
    }
  }
  if (process.argv.includes("--ceiling")) ceiling(data, base);
  if (process.argv.includes("--cv")) crossValidate(data, base);
  if (!process.argv.includes("--search")) return;
  const best = search(data, base, (line) => console.log(line));
  console.log("best", JSON.stringify(best.weights));
  console.log("best        ", fmt(evaluate(data, best)));
}

/** Coordinate ascent over every numeric ranking weight, from the shipped weights. */
function search(data: Collected[], base: Params, log: (line: string) => void): Params {
  const quick = process.argv.includes("--quick");
  const grid: Record<string, number[]> = quick
    ? { vectorShare: [0.2, 0.3, 0.4, 0.5, 0.6], pathMatch: [0.3, 0.5, 0.7], chunkKind: [0.2, 0.4], symbolTerms: [0.15, 0.25, 0.35] }
    : {
        vectorShare: [0.2, 0.3, 0.4, 0.5, 0.6],
        symbolMatch: [0, 0.2, 0.4, 0.6, 0.8, 1.2],
        symbolTerms: [0.15, 0.25, 0.35, 0.5],
        pathMatch: [0.2, 0.3, 0.4, 0.5, 0.7],
        termCoverage: [0, 0.05, 0.1, 0.2],
        definition: [0.3, 0.5, 0.7, 1.0],
        referencePenalty: [0.5, 0.7, 0.8, 0.9, 1],
        chunkKind: [0.1, 0.2, 0.3, 0.4, 0.5],
        fileAggregation: [0, 0.05, 0.1, 0.2, 0.3],
        fileAggregationDecay: [0.25, 0.5, 0.75],
        diversity: [0.6, 0.75, 0.85, 0.95, 1],
      };
  let best: Params = { ...base, weights: { ...RANK_WEIGHTS } };
  let bestScore = evaluate(data, best).objective;
  for (let round = 0; round < (process.argv.includes("--one-round") ? 1 : 2); round++) {
    for (const [key, values] of Object.entries(grid)) {
      for (const v of values) {
        const cand: Params = { ...best, weights: { ...best.weights, [key]: v } };
        const r = evaluate(data, cand).objective;
        if (r > bestScore + 1e-4) {
          bestScore = r;
          best = cand;
        }
      }
      log(`round ${round} ${key}: best ${bestScore.toFixed(4)} ${(best.weights as Record<string, unknown>)[key]}`);
    }
  }
  return best;
}

/**
 * Leave-one-code-base-out: weights searched on the other code bases, scored on the one left
 * out, so every query is judged by weights that never saw its code base. The gap to the
 * in-sample numbers is the over-fitting of the calibration.
 */
function crossValidate(data: Collected[], base: Params): void {
  const repos = [...new Set(data.map((c) => c.query.repo))];
  const scored: Array<{ c: Collected; p: Params }> = [];
  for (const repo of repos) {
    const train = data.filter((c) => c.query.repo !== repo);
    const best = search(train, base, () => undefined);
    for (const c of data) if (c.query.repo === repo) scored.push({ c, p: best });
    process.stderr.write(`cv: ${repo} done\n`);
  }
  // Score each query with the weights of its fold.
  const r = summarise(scored.map(({ c, p }) => scoreOne(c, p, "hybrid")));
  console.log("cross-validated (leave one code base out)", fmt(r));
}

/**
 * How far re-weighting alone could go on natural queries: how often either source already has a
 * relevant file first, and the NDCG@10 if the best vectorShare were picked for each query
 * knowing the answer (no real ranker can do that; it bounds what fusion weights can reach).
 */
function ceiling(data: Collected[], base: Params): void {
  const natural = data.filter((c) => c.query.set === "natural");
  const firstFile = (hits: Hit[], relevant: Set<string>) => {
    const files = [...new Set(hits.map((h) => h.record.filePath))];
    const i = files.findIndex((f) => relevant.has(f));
    return i < 0 ? Infinity : i;
  };
  let eitherFirst = 0;
  let oracle = 0;
  const shares = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
  for (const c of natural) {
    const relevant = new Set(c.query.relevant.map((r) => r.filePath));
    if (Math.min(firstFile(c.keyword, relevant), firstFile(c.vector, relevant)) === 0) eitherFirst++;
    let best = 0;
    for (const vectorShare of shares) {
      const ranked = rankCandidates(c.query.query, fuse(c, base, "hybrid"), { weights: { ...base.weights, vectorShare } });
      best = Math.max(best, scoreQuery(top10(ranked), c.query.relevant).ndcg10);
    }
    oracle += best;
  }
  console.log(
    `ceiling: a relevant file is first in the keyword or the vector list for ${eitherFirst}/${natural.length} natural queries; ` +
      `best vectorShare per query (oracle) gives natural NDCG@10 ${(oracle / natural.length).toFixed(3)}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
