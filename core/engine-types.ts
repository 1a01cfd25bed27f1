// The contract between the core and its hosts (CLI, OpenCode server plugin, TUI, eval).
// Hosts hold an Engine for one workspace and never reach into the store or the indexer directly.
import type { RagConfig } from "./config/defaults.js";
import type { QuirkMemory } from "./memory/quirks.js";
import type { SearchFilter, SearchResult } from "./types.js";

export type LogLevel = "debug" | "info" | "error";

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface OpenEngineOptions {
  /** Workspace root; default: the current directory. */
  root?: string;
  /** Explicit config file (--config). */
  configPath?: string;
  /** Deep-merged over the loaded config (tests, eval configurations). */
  overrides?: unknown;
  logger?: Logger;
  /**
   * A background indexer (the plugin's, `index --watch`): its passes keep within
   * `indexing.maxCpuShare` of the cores, and the threads it starts run at low priority.
   */
  background?: boolean;
}

export interface IndexProgress {
  phase: "scanning" | "chunking" | "describing" | "embedding" | "writing" | "done";
  filesDone: number;
  filesTotal: number;
  chunksDone: number;
  bytesDone: number;
  /** ms since the pass started */
  elapsedMs: number;
}

export interface IndexOptions {
  /** Drop everything and rebuild from scratch. */
  force?: boolean;
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  /** Only look at these workspace-relative paths (watch mode); others are assumed unchanged. */
  onlyPaths?: string[];
  /**
   * When the changed files hold more bytes than this (a rebuild reads every file), or the
   * pass's commit would rewrite the table (compaction), the pass stops once it has planned,
   * before changing anything, with a PassTooBigError: a watcher then runs it in another process
   * (core/indexing/pass-apart.ts).
   */
  apartAboveBytes?: number;
}

export interface IndexSummary {
  filesScanned: number;
  filesIndexed: number;
  filesUnchanged: number;
  filesDeleted: number;
  filesSkipped: number;
  chunksAdded: number;
  chunksRemoved: number;
  chunksEmbedded: number;
  /** Chunks whose vectors came from the embedding cache (remote models) instead of the model. */
  chunksFromCache: number;
  /**
   * Chunks whose vectors came from the rows they replace (same text, lines moved) instead of
   * the model: for models cheap to recompute, which keep no embedding cache.
   */
  chunksReused: number;
  bytesRead: number;
  durationMs: number;
  /** Why the pass rebuilt from scratch, if it did (e.g. "embedding model changed"). */
  rebuildReason: string | null;
  /** Files that could not be read or chunked: path and one-line reason. */
  errors: Array<{ filePath: string; error: string }>;
  /**
   * Files indexed, but not as their format asks: e.g. their chunker failed and they were cut
   * into line windows instead. Path and one-line reason; these files count as indexed.
   */
  warnings: Array<{ filePath: string; warning: string }>;
}

export interface IndexStatus {
  root: string;
  storeUri: string;
  stateDir: string;
  chunks: number;
  files: number;
  provider: string;
  model: string;
  dimension: number | null;
  /** null when vectors are available; otherwise the one-line reason search is keyword-only. */
  keywordOnlyReason: string | null;
  manifestStatus: "ok" | "missing" | "corrupt";
  lastIndexedAt: string | null;
  upToDateFiles: number;
  pendingFiles: number;
  watch: { state: "off" | "watching" | "indexing" | "error"; backend?: string; updatedAt?: string; message?: string };
  /** Set while a pass runs in any process on this store. */
  indexing: { filesDone: number; filesTotal: number; startedAt: string } | null;
  /** Why the store's files cannot be trusted (missing or truncated), or null; the next pass rebuilds. */
  storeDamage: string | null;
  /** Files the last pass left out, each with why (up to 1,000 listed; `omitted` counts the rest). */
  skipped: { total: number; files: Array<{ path: string; reason: string }>; omitted: number; updatedAt: string } | null;
}

export interface SearchOptions {
  topK?: number;
  minScore?: number;
  filter?: SearchFilter;
  /** Retrieval mode; default from config (hybrid when a model is present). */
  mode?: "hybrid" | "keyword" | "vector";
  /** Apply the ranking stage; default config.retrieval.rank. */
  rank?: boolean;
  /**
   * Lift the retrieval.maxChunks bound (topK still applies): for lookups whose hits are not
   * shown as results, such as the candidate files of find_usages.
   */
  uncapped?: boolean;
  /**
   * Return every candidate the search would rank, unranked and uncut, best first by the fused
   * score (by the one source's own score in a one-source mode): the pools as a search of this
   * `topK` draws them. For evaluation tools and the ranker's training, which replay the
   * ranking stage on exactly the product's candidates; not for showing (overlapping chunks of
   * a file are all there).
   */
  pool?: boolean;
}

export interface Watcher {
  close(): Promise<void>;
}

export interface PassApart {
  /** The child's summary once it committed its pass; null when it failed or could not start. */
  readonly done: Promise<IndexSummary | null>;
  /** Ends the child (a pass stopped midway leaves the previous index as it was). */
  stop(): void;
}

/** How a watcher runs its big passes elsewhere (core/indexing/pass-apart.ts). */
export interface PassesApart {
  /** Passes that would read more than this many bytes of changed files run apart. */
  aboveBytes: number;
  /**
   * Starts a pass of the workspace: a rebuild (force), one over the given workspace-relative
   * paths (IndexOptions.onlyPaths), else a full one; null when it cannot start.
   */
  run(options: { force: boolean; onlyPaths?: string[] }, logger: Logger): PassApart | null;
}

export interface WatchOptions {
  backend?: "chokidar" | "git";
  debounceMs?: number;
  intervalMs?: number;
  /** Runs a pass over the whole workspace at once, for what changed while nobody watched. */
  catchUp?: boolean;
  /**
   * How big passes run in another process, so that their memory does not stay with this one
   * (core/indexing/pass-apart.ts). Default: the package's CLI, for an engine that reads its
   * config from the workspace's files as the CLI does and keeps its index on this disk; null:
   * every pass runs here.
   */
  passesApart?: PassesApart | null;
  onPass?: (summary: IndexSummary) => void;
  onError?: (error: Error) => void;
}

export interface Engine {
  readonly root: string;
  readonly config: RagConfig;
  readonly stateDir: string;
  readonly storeUri: string;
  index(options?: IndexOptions): Promise<IndexSummary>;
  search(query: string, options?: SearchOptions): Promise<SearchResult[]>;
  /**
   * Cheap: reads the manifest and status files. Counting pending files stats the workspace;
   * `{ countPending: false }` skips that (upToDateFiles and pendingFiles are then 0).
   */
  status(options?: { countPending?: boolean }): Promise<IndexStatus>;
  clear(): Promise<void>;
  watch(options?: WatchOptions): Promise<Watcher>;
  /** Quirk memory of this workspace (F28), sharing the store and embedding model. */
  memory?(): Promise<QuirkMemory>;
  /** Re-reads config files and runtime overrides; returns the keys that changed. */
  reloadConfig(): Promise<string[]>;
  close(): Promise<void>;
}
