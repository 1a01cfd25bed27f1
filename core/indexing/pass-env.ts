// What an index pass needs from its host (the Engine), and the few types every step shares.
import { join } from "node:path";
import type { RagConfig } from "../config/defaults.js";
import { isRemoteOrMemoryUri } from "../config/load.js";
import type { Logger } from "../engine-types.js";
import type { EmbeddingProvider, VectorStore } from "../types.js";
import type { KeywordIndex } from "../keyword/keyword-index.js";
import type { CpuBudget } from "./cpu-share.js";
import type { EmbeddingCache } from "./embedding-cache.js";
import type { WrittenFileTable } from "./manifest.js";
import type { SharedIndex } from "./shared-index.js";

/** What a pass needs from its host (the Engine): resources it opens once and reuses. */
export interface PassEnv {
  root: string;
  config: RagConfig;
  stateDir: string;
  storeUri: string;
  logger: Logger;
  embedding(): Promise<{ provider: EmbeddingProvider | null; reason: string | null }>;
  /** The store for this dimension, opened (or re-created for a new dimension) as needed. */
  store(dimension: number | null): Promise<VectorStore>;
  /** The in-memory keyword index matching the current manifest, if loaded. */
  keyword: KeywordIndex | null;
  /** The generation `keyword` was loaded at. */
  keywordGeneration: number;
  /**
   * The file table this process's last commit wrote, for its next pass to take instead of
   * decoding it again; null once taken, or when no pass of this process committed one.
   */
  writtenFiles?: WrittenFileTable | null;
  /** The embedding cache the last pass used, kept for the next pass of this process. */
  embeddingCache?: EmbeddingCache | null;
  /** Why the store is known to be damaged (a failed read during search), or null. */
  storeDamage?: string | null;
  /** Moves a damaged local table aside and opens a fresh, empty one; null where it cannot. */
  resetStore?(dimension: number | null): Promise<VectorStore | null>;
  /** A background pass's share of the cores; null or absent: a foreground pass, every core. */
  cpu?: CpuBudget | null;
  /** A team-shared index on object storage: the bucket's lock, and its state files mirrored in stateDir. */
  shared?: SharedIndex | null;
}

/**
 * How long a pass's long synchronous work (its keyword snapshot, the manifest's file table) runs
 * before the event loop gets a turn (`runInSlices`): a background pass shares its host's thread
 * (OpenCode's server, an MCP session), so the default slice; a foreground pass owns its process,
 * where nothing waits on it, so never.
 */
export function passSliceMs(env: Pick<PassEnv, "cpu">): number | undefined {
  return env.cpu ? undefined : Infinity;
}

/** The store operations a pass uses beyond the VectorStore contract, where the store has them. */
export interface StoreLike extends VectorStore {
  waitForAnnBuild?(): Promise<void>;
  compact?(keepVersion: number): Promise<void>;
  /** Whether compact() would rewrite the table once this many more writes land. */
  rewriteDue?(addedFragments: number): Promise<boolean>;
  dropOldVersions?(): Promise<void>;
}

/** The local table folder of a pass's store, or null for object storage and memory://. */
export function localTableDir(env: Pick<PassEnv, "storeUri" | "config">): string | null {
  if (isRemoteOrMemoryUri(env.storeUri)) return null;
  return join(env.storeUri, `${env.config.vectorStore.tableName}.lance`);
}

export class IndexCancelledError extends Error {
  constructor() {
    super("indexing cancelled");
    this.name = "IndexCancelledError";
  }
}

/**
 * A pass asked to stay small (IndexOptions.apartAboveBytes) found more to read, or would rewrite
 * the table at its commit: thrown after planning, before anything changed, for the caller to
 * run the pass in another process.
 */
export class PassTooBigError extends Error {
  constructor(
    readonly bytes: number,
    readonly files: number,
    readonly reason: "changed files" | "table rewrite",
  ) {
    super(`the pass would read ${files} changed files (${bytes} bytes)${reason === "table rewrite" ? " and rewrite the table" : ""}`);
    this.name = "PassTooBigError";
  }
}

/** Given to a watcher's onError when it stopped for good (its workspace folder was deleted). */
export class WatcherStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WatcherStoppedError";
  }
}
