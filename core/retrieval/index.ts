// Retrieval (F11): hybrid keyword + vector search and the ranking stage. Portable.
export { hybridSearch, VECTOR_WEIGHT, KEYWORD_WEIGHT } from "./hybrid.js";
export type { HybridInput, RetrievalMode } from "./hybrid.js";
export { rankCandidates } from "./rank.js";
export type { RankCandidate } from "./rank.js";
