// Vectors a pass takes from the rows it is about to replace, for a provider whose vectors are
// cheap to recompute (no embedding cache is kept for it: the table holds the only copy). A
// chunk whose lines moved (a line added above it) gets a new id but embeds the same text, so
// its old row's vector is the one the model would compute.
import type { VectorStore } from "../types.js";

/**
 * What a vector was computed from, as a key: the content hash (path, context and code, see
 * `embeddingText`) and the description embedded with it, if any. Equal keys, equal text.
 */
export function reuseKey(contentHash: string, description: string | undefined): string {
  const described = description?.trim();
  return described ? `${contentHash}\n${described}` : contentHash;
}

/** The vectors of rows `ids` by reuse key; empty where the store cannot give them. */
export async function vectorsOfRows(store: VectorStore, ids: string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (ids.length === 0 || !store.vectorsByIds) return out;
  for (const v of await store.vectorsByIds(ids)) out.set(reuseKey(v.contentHash, v.description), v.vector);
  return out;
}
