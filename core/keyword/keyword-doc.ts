// The keyword document of an indexed chunk: what BM25 matches (the embedded text), the names it
// weighs as the chunk's symbol — every declaration a packed chunk holds, so a name counts as
// much in a pack as in a chunk of its own — and its vector, which the index keeps for search.
import { declaredNames } from "../chunking/pack.js";
import type { ChunkRecord } from "../types.js";
import type { KeywordDoc } from "./keyword-index.js";

export function keywordDocOf(r: ChunkRecord, text: string, vector: ArrayLike<number> | null = null): KeywordDoc {
  const { names } = declaredNames(r);
  return { id: r.id, text, filePath: r.filePath, language: r.language, kind: r.kind, symbol: names.join(" "), declares: names, vector };
}
