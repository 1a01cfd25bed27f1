// Public surface of retrieval-quality evaluation (portable: no Node built-ins).
export type { EvalQuery, RelevantSpan, RetrievedSpan, QueryScores, QueryOutcome, ScoreSummary, EvalSummary } from "./types.js";
export { spanMatches, spanCovers, recallAtK, reciprocalRankAtK, fileNdcgAtK, rankedFiles, scoreQuery, DEFAULT_RECALL_KS } from "./metrics.js";
export { parseQueryFile, QueryFileError } from "./queries.js";
export { summarise, meanScores, percentile } from "./summary.js";
export { runQueries } from "./run.js";
export type { SearchForEval, RunQueriesOptions } from "./run.js";
export { formatSummary, formatComparison, compareSummaries } from "./report.js";
export type { ComparisonRow } from "./report.js";
export { builtInPreset, presetFromJson, BUILT_IN_PRESETS } from "./presets.js";
export type { EvalPreset } from "./presets.js";
