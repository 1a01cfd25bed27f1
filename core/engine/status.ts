// status(): what the index holds, what a pass would have to look at, and what is happening
// (watcher, a pass in progress, damage, files left out). Hosts poll it (the TUI sidebar), so
// the costly parts are reused while nothing changed.
import type { RagConfig } from "../config/defaults.js";
import type { IndexStatus } from "../engine-types.js";
import type { VectorStore } from "../types.js";
import { walkWorkspace } from "../files/walk.js";
import { committedFileCount, entryChunkCount, readManifest, readManifestHeader, type Manifest, type ManifestHeader } from "../indexing/manifest.js";
import type { PassEnv } from "../indexing/pass-env.js";
import { oneLine } from "../error-line.js";
import { readSkippedList } from "../indexing/skipped-files.js";
import { readProgress, readWatcherStatus } from "../indexing/state-files.js";
import { storeDamage, tableFiles } from "../indexing/store-files.js";
import { fileSizeLimits, ignoreRulesFor } from "../indexing/workspace-rules.js";
import { vectorsUnusableReason } from "../indexing/index-model.js";
import type { EmbeddingSlot, EmbeddingState } from "./embedding-slot.js";
import type { StoreSlot } from "./store-slot.js";

/**
 * Why search is keyword-only, or null: without a model, why there is none; with one, whether
 * the committed index's vectors are its own (`recorded`: the model its manifest names).
 */
export function keywordOnlyReasonOf(state: EmbeddingState, recorded: { provider: string; model: string } | null): string | null {
  return state.reason ?? vectorsUnusableReason(recorded, state.provider);
}

/** How long status() reuses its count of pending files while the manifest is unchanged... */
const STATUS_WALK_REUSE_MS = 3000;
/** ...for trees at least this big; small trees are always walked afresh. */
const STATUS_WALK_REUSE_MIN_FILES = 2000;

export interface StatusContext {
  root: string;
  storeUri: string;
  stateDir: string;
  config: RagConfig;
  passEnv: PassEnv;
  embedding: EmbeddingSlot;
  store: StoreSlot;
}

export class StatusReader {
  private pendingCache: { stamp: string; at: number; files: number; upToDate: number; pending: number } | null = null;
  /** The last look at the store's files, keyed by the manifest's record and the files on disk. */
  private damageCache: { key: string; result: string | null } | null = null;

  async read(ctx: StatusContext, options: { countPending?: boolean }): Promise<IndexStatus> {
    // Counting pending files needs every file's entry; otherwise the header answers, which at
    // 100k files saves reading and decoding the files table (0.2 s of a one-off query).
    const counting = options.countPending !== false;
    const read = counting ? readManifest(ctx.stateDir) : readManifestHeader(ctx.stateDir);
    const manifest = read.status === "ok" && "manifest" in read ? read.manifest : null;
    const header: ManifestHeader | null = read.status !== "ok" ? null : "manifest" in read ? read.manifest : read.header;
    let keywordOnlyReason: string | null = null;
    let activeModel: string | null = null;
    try {
      const state = await ctx.embedding.get();
      keywordOnlyReason = keywordOnlyReasonOf(state, header && { provider: header.provider, model: header.model });
      // Remote providers fill in their own default model when the config names none.
      activeModel = state.provider?.model ?? null;
    } catch (err) {
      keywordOnlyReason = oneLine(err);
    }
    let files = 0;
    if (manifest) {
      for (const path in manifest.files) if (entryChunkCount(manifest.files[path]) > 0) files++;
    } else if (header) {
      files = committedFileCount(ctx.stateDir) ?? 0;
    }
    const { upToDate, pending } = counting ? await this.countPending(ctx, manifest) : { upToDate: 0, pending: 0 };
    const watcher = readWatcherStatus(ctx.stateDir);
    const progress = readProgress(ctx.stateDir);
    const skipped = readSkippedList(ctx.stateDir);
    return {
      root: ctx.root,
      storeUri: ctx.storeUri,
      stateDir: ctx.stateDir,
      chunks: header?.chunkCount ?? 0,
      files,
      provider: ctx.config.embedding.provider,
      model: activeModel ?? ctx.config.embedding.model,
      dimension: header?.dimension ?? null,
      keywordOnlyReason,
      manifestStatus: read.status,
      lastIndexedAt: header?.lastIndexedAt || null,
      upToDateFiles: upToDate,
      pendingFiles: pending,
      watch: watcher
        ? { state: watcher.state, backend: watcher.backend, updatedAt: watcher.updatedAt, message: watcher.message }
        : { state: "off" },
      indexing: progress ? { filesDone: progress.filesDone, filesTotal: progress.filesTotal, startedAt: progress.startedAt } : null,
      storeDamage: header && !progress ? await this.damage(ctx, header.storeFiles) : null,
      skipped: skipped ? { total: skipped.total, files: skipped.files, omitted: skipped.omitted, updatedAt: skipped.updatedAt } : null,
    };
  }

  /** Which files a pass would have to look at (stat only); never indexed: every file is pending. */
  private async countPending(ctx: StatusContext, manifest: Manifest | null): Promise<{ upToDate: number; pending: number }> {
    const walk = () => walkWorkspace(ctx.root, { rules: ignoreRulesFor(ctx.passEnv), ...fileSizeLimits(ctx.config.indexing) });
    if (!manifest) return { upToDate: 0, pending: (await walk()).files.length };
    const stamp = `${manifest.generation}:${manifest.lastIndexedAt}`;
    const cached = this.pendingCache;
    if (cached && cached.stamp === stamp && cached.files >= STATUS_WALK_REUSE_MIN_FILES && Date.now() - cached.at < STATUS_WALK_REUSE_MS) {
      return { upToDate: cached.upToDate, pending: cached.pending };
    }
    const { files: present } = await walk();
    let upToDate = 0;
    let pending = 0;
    const seen = new Set<string>();
    for (const f of present) {
      seen.add(f.path);
      const e = manifest.files[f.path];
      if (e && e.size === f.size && e.mtimeMs === f.mtimeMs) upToDate++;
      else pending++;
    }
    for (const p of Object.keys(manifest.files)) if (!seen.has(p)) pending++;
    this.pendingCache = { stamp, at: Date.now(), files: present.length, upToDate, pending };
    return { upToDate, pending };
  }

  /** A look at the store's files (a read of every row only when they changed). */
  private async damage(ctx: StatusContext, recorded: Record<string, number> | undefined): Promise<string | null> {
    if (ctx.passEnv.storeDamage) return ctx.passEnv.storeDamage;
    const table = ctx.store.tableDir();
    const key = table ? JSON.stringify([recorded ?? null, tableFiles(table)]) : "";
    if (this.damageCache?.key === key) return this.damageCache.result;
    let opened: VectorStore | null = null;
    try {
      const result = await storeDamage(table, recorded, async () => {
        const current = ctx.store.current();
        if (current) return current;
        opened = await ctx.store.open(null, false);
        return opened;
      });
      this.damageCache = { key, result };
      return result;
    } finally {
      if (opened) await (opened as VectorStore).close().catch(() => undefined);
    }
  }
}
