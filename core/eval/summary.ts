// Turns per-query outcomes into means per group and latency percentiles.
import type { EvalSummary, QueryOutcome, ScoreSummary } from "./types.js";

export function meanScores(outcomes: QueryOutcome[]): ScoreSummary {
  const n = outcomes.length;
  const recall: Record<number, number> = {};
  let mrr = 0;
  let strict = 0;
  let ndcg = 0;
  for (const o of outcomes) {
    for (const [k, v] of Object.entries(o.scores.recall)) recall[Number(k)] = (recall[Number(k)] ?? 0) + v;
    mrr += o.scores.mrr10;
    strict += o.scores.strictMrr10;
    ndcg += o.scores.ndcg10;
  }
  for (const k of Object.keys(recall)) recall[Number(k)] = n ? recall[Number(k)] / n : 0;
  return { count: n, recall, mrr10: n ? mrr / n : 0, strictMrr10: n ? strict / n : 0, ndcg10: n ? ndcg / n : 0 };
}

/** Nearest-rank percentile (p in [0,100]) of unsorted values; 0 for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

function groupBy(outcomes: QueryOutcome[], key: (o: QueryOutcome) => string | null): Record<string, ScoreSummary> {
  const groups = new Map<string, QueryOutcome[]>();
  for (const o of outcomes) {
    const k = key(o);
    if (k === null) continue;
    groups.set(k, [...(groups.get(k) ?? []), o]);
  }
  const out: Record<string, ScoreSummary> = {};
  for (const k of [...groups.keys()].sort()) out[k] = meanScores(groups.get(k)!);
  return out;
}

export function summarise(outcomes: QueryOutcome[]): EvalSummary {
  const latencies = outcomes.map((o) => o.latencyMs);
  return {
    overall: meanScores(outcomes),
    byCategory: groupBy(outcomes, (o) => o.query.category),
    byLanguage: groupBy(outcomes, (o) => o.query.language),
    byRepo: groupBy(outcomes, (o) => o.query.repo),
    bySet: groupBy(outcomes, (o) => o.query.set ?? "default"),
    bySymbolNamed: groupBy(outcomes, (o) => (o.query.containsSymbolName === undefined ? null : o.query.containsSymbolName ? "named" : "unnamed")),
    latency: {
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : 0,
    },
  };
}
