// Node entry of the vector store: picks the implementation for a store URI.
// `memory://` maps to the portable in-memory store (fast, no native code, nothing persists);
// every other URI (a folder, s3://, gs://, az://, db://, or `lancedb+memory://` for LanceDB's own
// in-memory mode) is handed to LanceDB as is. Folders and s3:// are what the tests cover.
import type { VectorStore } from "../types.js";
import { MemoryVectorStore } from "./memory.js";
import { openLanceStore, type LanceStoreOptions } from "./lancedb.js";

export { MemoryVectorStore } from "./memory.js";
export { LanceVectorStore, StoreDimensionMismatchError, DEFAULT_ANN_MIN_ROWS, openLanceStore } from "./lancedb.js";
export type { LanceStoreOptions } from "./lancedb.js";
export { compileFilter, matchesFilter, filterToSql, HIDDEN_BY_DEFAULT_KIND } from "./filter.js";

export const MEMORY_STORE_URI = "memory://";
/** Prefix selecting LanceDB's in-memory mode instead of the portable store. */
const LANCE_MEMORY_PREFIX = "lancedb+";

export interface OpenVectorStoreOptions extends Omit<LanceStoreOptions, "uri" | "tableName" | "dimension"> {
  uri: string;
  tableName: string;
  /** Vector length of the embedding model; null for a keyword-only store. */
  dimension: number | null;
}

export function isMemoryStoreUri(uri: string): boolean {
  return uri === MEMORY_STORE_URI || uri.startsWith(MEMORY_STORE_URI);
}

export async function openVectorStore(opts: OpenVectorStoreOptions): Promise<VectorStore> {
  if (isMemoryStoreUri(opts.uri)) return new MemoryVectorStore(opts.dimension);
  const uri = opts.uri.startsWith(LANCE_MEMORY_PREFIX + MEMORY_STORE_URI) ? opts.uri.slice(LANCE_MEMORY_PREFIX.length) : opts.uri;
  return openLanceStore({ ...opts, uri });
}
