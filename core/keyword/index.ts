// Keyword search (F10): a BM25 inverted index with a code-aware tokenizer. Portable.
export { tokenizeCode, tokenizePath, normaliseTerm, MAX_TOKEN_LENGTH } from "./tokenize.js";
export { KeywordIndex } from "./keyword-index.js";
export { keywordDocOf } from "./keyword-doc.js";
export type { KeywordDoc } from "./keyword-index.js";
export type { ScoredId } from "../types.js";
