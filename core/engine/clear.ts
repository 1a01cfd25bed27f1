// clear(): the index's table and state files go, under the pass lock (and the bucket's lock
// for a shared index); the next pass builds from scratch.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../engine-types.js";
import type { VectorStore } from "../types.js";
import { removeQuietly } from "../indexing/atomic-file.js";
import { EMBEDDING_CACHE_DIR } from "../indexing/embedding-cache.js";
import { KEYWORD_FILE_PREFIX } from "../indexing/keyword-files.js";
import { acquireIndexLock } from "../indexing/lock.js";
import { removeManifest } from "../indexing/manifest.js";
import type { SharedIndex } from "../indexing/shared-index.js";
import { clearProgress } from "../indexing/state-files.js";
import type { StoreSlot } from "./store-slot.js";

export interface ClearContext {
  stateDir: string;
  storeUri: string;
  logger: Logger;
  store: StoreSlot;
  shared: SharedIndex | null;
  storeForIndexing(): Promise<VectorStore>;
}

export async function clearIndex(ctx: ClearContext): Promise<void> {
  const { stateDir } = ctx;
  const lock = acquireIndexLock(stateDir);
  try {
    const table = ctx.store.tableDir();
    if (table) {
      await ctx.store.close();
      rmSync(table, { recursive: true, force: true });
    } else if (ctx.shared) {
      // Under the bucket's lock: the table's rows and the index's files beside it.
      await ctx.shared.clear(async () => (await ctx.storeForIndexing()).clear());
    } else {
      await (await ctx.storeForIndexing()).clear();
    }
    removeManifest(stateDir);
    rmSync(join(stateDir, EMBEDDING_CACHE_DIR), { recursive: true, force: true });
    if (existsSync(stateDir)) {
      for (const n of readdirSync(stateDir)) {
        if (n.startsWith(KEYWORD_FILE_PREFIX)) removeQuietly(join(stateDir, n));
      }
    }
    clearProgress(stateDir);
    ctx.logger.info("index cleared", { store: ctx.storeUri });
  } finally {
    lock.release();
  }
}
