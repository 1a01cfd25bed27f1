// Retrieval (F11): hybrid keyword + vector search and the ranking stage. Portable.
export { hybridSearch } from "./hybrid.js";
export { VECTOR_WEIGHT, KEYWORD_WEIGHT, fuseCandidates, orderingScores, type FusedScores } from "./fusion.js";
export type { HybridInput, RetrievalMode } from "./hybrid.js";
export { rankCandidates } from "./rank.js";
export type { RankCandidate } from "./rank.js";
export { searchText } from "./query-analysis.js";
