// Runs a query set through any search function and scores each answer. Portable: the
// caller supplies the search (Engine.search in the CLI, an in-memory retriever in tests).
import { scoreQuery, DEFAULT_RECALL_KS } from "./metrics.js";
import type { EvalQuery, QueryOutcome, RetrievedSpan } from "./types.js";

export type SearchForEval = (query: EvalQuery) => Promise<RetrievedSpan[]>;

export interface RunQueriesOptions {
  recallKs?: readonly number[];
  /** Called after each query, e.g. to show progress. */
  onQuery?: (outcome: QueryOutcome, done: number, total: number) => void;
}

function now(): number {
  return globalThis.performance ? globalThis.performance.now() : Date.now();
}

/** Runs queries one after another (latency is per query, never overlapped). */
export async function runQueries(
  queries: EvalQuery[],
  search: SearchForEval,
  options: RunQueriesOptions = {},
): Promise<QueryOutcome[]> {
  const out: QueryOutcome[] = [];
  for (const q of queries) {
    const t0 = now();
    const results = await search(q);
    const latencyMs = now() - t0;
    const outcome: QueryOutcome = {
      query: q,
      results,
      scores: scoreQuery(results, q.relevant, options.recallKs ?? DEFAULT_RECALL_KS),
      latencyMs,
    };
    out.push(outcome);
    options.onQuery?.(outcome, out.length, queries.length);
  }
  return out;
}
