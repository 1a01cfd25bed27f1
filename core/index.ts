// The package's library entry (dist/library.js): the public API of the core. Hosts and users
// import from here only; everything else is internal and may change.
import type { Chunker } from "./types.js";
import type { Engine, OpenEngineOptions, IndexOptions, IndexSummary, SearchOptions } from "./engine-types.js";
import type { SearchResult } from "./types.js";
import { registerChunker as registerChunkerInRegistry } from "./chunking/index.js";
import { markInProcessExtensions } from "./indexing/handlers.js";
import { openEngine } from "./engine.js";

export { openEngine } from "./engine.js";
export { PASS_MALLOC_ENV, tuneOwnProcess } from "./own-process.js";
export { loadConfig, type LoadedConfig, type LoadConfigOptions } from "./config/load.js";
export { ConfigError, validateConfig } from "./config/validate.js";
export { DEFAULT_CONFIG, BUNDLED_MODEL_ID, type RagConfig } from "./config/defaults.js";
export { IndexBusyError, waitingLine } from "./locking/busy.js";
export { PlainError } from "./errors/plain-error.js";
export type { FailureKind } from "./errors/plain-errors.js";
export { IndexCancelledError } from "./indexing/indexer.js";
export { registerFileHandler, registerChunkEnricher, type FileHandler, type ChunkEnricher, type FileHandlerContext, type HandlerResult } from "./indexing/handlers.js";
export { createFileLogger, silentLogger } from "./logging/index.js";
export { chunkFile, languageForPath, embeddingText } from "./chunking/index.js";
export { createEmbeddingProvider } from "./embedding/index.js";
export { RemoteServiceError } from "./embedding/http.js";
export { resolveApiKey } from "./embedding/api-keys.js";
export { createDescriber, getImageDescription, IMAGE_CHUNK_KIND, type Describer } from "./description/index.js";
export { openVectorStore, MemoryVectorStore, StoreDimensionMismatchError, type OpenVectorStoreOptions } from "./store/index.js";
export { KeywordIndex, tokenizeCode, type KeywordDoc } from "./keyword/index.js";
export { hybridSearch, type HybridInput, type RetrievalMode } from "./retrieval/index.js";
export { connectQueryServer, type QueryClient, type RemoteAnswer } from "./ipc/query-client.js";
export { queryFingerprint, querySocketPath } from "./ipc/query-socket.js";
export type * from "./types.js";
export type * from "./engine-types.js";

/**
 * Registers a chunker for file extensions (F4): it wins over the line fallback, and a clash
 * with a built-in extension warns and is skipped. Files it claims are chunked in this process.
 */
export function registerChunker(chunker: Chunker, extensions?: string[], warn?: (message: string) => void): void {
  registerChunkerInRegistry(chunker, extensions, warn);
  markInProcessExtensions(extensions ?? chunker.fileExtensions ?? []);
}

/** Indexes a workspace once and closes the engine: `await createIndexer({ root }).index()`. */
export function createIndexer(options: OpenEngineOptions = {}): { index(o?: IndexOptions): Promise<IndexSummary> } {
  return {
    async index(o?: IndexOptions) {
      const engine = await openEngine(options);
      try {
        return await engine.index(o);
      } finally {
        await engine.close();
      }
    },
  };
}

/** One search over an existing index: `await search("where are embeddings batched", { root })`. */
export async function search(query: string, options: OpenEngineOptions & SearchOptions = {}): Promise<SearchResult[]> {
  const { root, configPath, overrides, logger, ...searchOptions } = options;
  const engine: Engine = await openEngine({ root, configPath, overrides, logger });
  try {
    return await engine.search(query, searchOptions);
  } finally {
    await engine.close();
  }
}
