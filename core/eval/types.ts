// Vocabulary of retrieval-quality runs: a query with the spans that answer it, what a
// retriever returned for it, and the scores computed from the two.

/** A place in the code that answers a query. Without lines, the whole file answers it. */
export interface RelevantSpan {
  filePath: string;
  startLine?: number;
  endLine?: number;
}

export interface EvalQuery {
  id: string;
  query: string;
  /** e.g. "architecture", "semantic", "symbol", "docstring". */
  category: string;
  language: string;
  /** Which code base the query is about (one query file may cover several). */
  repo: string;
  relevant: RelevantSpan[];
  /** Which query set it came from (e.g. "natural", "docstring"); set by the runner. */
  set?: string;
  /** Whether the query names the symbol it is about (docstring sets record it). */
  containsSymbolName?: boolean;
}

/** One returned hit, best first. */
export interface RetrievedSpan {
  filePath: string;
  startLine: number;
  endLine: number;
}

export interface QueryScores {
  /** Chunk level: share of relevant spans found in the top k, keyed by k. */
  recall: Record<number, number>;
  /** Chunk level reciprocal rank of the first relevant hit within the top 10 (0 when none). */
  mrr10: number;
  /** The same with the strict chunk rule (`spanCovers`): the hit shows at least half of the target, up to 20 lines. */
  strictMrr10: number;
  /** File level NDCG over the top 10 distinct files. */
  ndcg10: number;
}

export interface QueryOutcome {
  query: EvalQuery;
  results: RetrievedSpan[];
  scores: QueryScores;
  latencyMs: number;
}

/** Mean scores of a group of queries. */
export interface ScoreSummary {
  count: number;
  recall: Record<number, number>;
  mrr10: number;
  strictMrr10: number;
  ndcg10: number;
}

export interface EvalSummary {
  overall: ScoreSummary;
  byCategory: Record<string, ScoreSummary>;
  byLanguage: Record<string, ScoreSummary>;
  byRepo: Record<string, ScoreSummary>;
  bySet: Record<string, ScoreSummary>;
  /** Queries that name their symbol (`named`) and those that do not (`unnamed`), where the set records it. */
  bySymbolNamed: Record<string, ScoreSummary>;
  latency: { p50: number; p95: number; mean: number };
}
