// The Engine: one workspace's index behind the contract in engine-types.ts. Hosts (CLI,
// OpenCode plugin, TUI, eval) hold one and never reach into the store or the indexer.
// Resources open lazily and are reused: the store, the embedding provider, the keyword index.
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RagConfig } from "./config/defaults.js";
import { checkThreads, loadConfig, isRemoteOrMemoryUri, resolveStore, type LoadedConfig } from "./config/load.js";
import { ConfigError, deepMerge, validateConfig } from "./config/validate.js";
import type {
  Engine,
  IndexOptions,
  IndexStatus,
  IndexSummary,
  Logger,
  LogLevel,
  OpenEngineOptions,
  SearchOptions,
  Watcher,
  WatchOptions,
} from "./engine-types.js";
import type { EmbeddingProvider, SearchResult, VectorStore } from "./types.js";
import { createEmbeddingProvider } from "./embedding/index.js";
import { cpuBudget, lowerThreadsStartedBy, type CpuBudget } from "./indexing/cpu-share.js";
import { loadCustomChunkers } from "./chunking/index.js";
import { openVectorStore, StoreDimensionMismatchError } from "./store/index.js";
import { hybridSearch, rankCandidates } from "./retrieval/index.js";
import { KeywordIndex } from "./keyword/keyword-index.js";
import { walkWorkspace } from "./files/walk.js";
import { createFileLogger, isLogLevel, teeLogger } from "./logging/index.js";
import { removeQuietly } from "./indexing/atomic-file.js";
import { EMBEDDING_CACHE_DIR } from "./indexing/embedding-cache.js";
import {
  ignoreRulesFor,
  KEYWORD_FILE_PREFIX,
  loadKeywordSnapshot,
  recoverInterruptedPass,
  runIndexPass,
  type PassEnv,
} from "./indexing/indexer.js";
import { acquireIndexLock } from "./indexing/lock.js";
import { manifestPath, readManifest, MANIFEST_FILE } from "./indexing/manifest.js";
import { oneLine } from "./indexing/prepare-file.js";
import { cleanErrorMessage } from "./error-line.js";
import { plainError } from "./errors/plain-error.js";
import { clearProgress, readProgress, readWatcherStatus } from "./indexing/state-files.js";
import { startWatcher } from "./indexing/watch.js";
import { IndexDamagedError, storeDamage, tableFiles } from "./indexing/store-files.js";
import { startQueryServer, type QueryServer } from "./ipc/query-server.js";
import { queryFingerprint } from "./ipc/query-socket.js";
import { redact } from "./redact.js";
import { readSkippedList } from "./indexing/skipped-files.js";
import { openSharedIndex, type SharedIndex } from "./indexing/shared-index.js";
import { lanceStorageOptions } from "./objectstore/s3.js";
import { beginDescriptionPass, registerDescriptionSteps } from "./description/index.js";
import { openQuirkMemory, QUIRK_TABLE } from "./memory/index.js";
import type { QuirkMemory } from "./memory/quirks.js";

/** How long status() reuses its count of pending files while the manifest is unchanged. */
const STATUS_WALK_REUSE_MS = 3000;
/** A shared index's manifest is looked up in the bucket at most this often by searches. */
const SHARED_REFRESH_MS = 1000;
const STATUS_WALK_REUSE_MIN_FILES = 2000;

interface EmbeddingState {
  provider: EmbeddingProvider | null;
  reason: string | null;
}

/** Opens the engine for a workspace. Throws ConfigError (one line per problem) on bad config. */
export async function openEngine(options: OpenEngineOptions = {}): Promise<Engine> {
  const loaded = loadEngineConfig(options);
  return new WorkspaceEngine(loaded, options);
}

function loadEngineConfig(options: OpenEngineOptions): LoadedConfig {
  const loaded = loadConfig({ root: options.root, configPath: options.configPath });
  if (options.overrides !== undefined && options.overrides !== null) {
    const problems = validateConfig(options.overrides, "overrides");
    if (problems.length > 0) throw new ConfigError(problems.join("\n"));
    loaded.config = deepMerge(loaded.config, options.overrides);
    // The store location may come from the overrides (tests, eval).
    Object.assign(loaded, resolveStore(loaded.config, loaded.root));
    checkThreads(loaded.config, "overrides");
  }
  return loaded;
}

/** The same error (class and stack kept) without LanceDB's Rust source locations in its message. */
function cleaned(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(oneLine(err));
  err.message = cleanErrorMessage(err.message);
  return err;
}

/** Flattens a config into dotted leaf keys, for reporting what a reload changed. */
function flatten(obj: unknown, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  if (obj !== null && typeof obj === "object" && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out[prefix] = JSON.stringify(obj);
  }
  return out;
}

class WorkspaceEngine implements Engine {
  readonly root: string;
  private loaded: LoadedConfig;
  private logger: Logger;
  private embeddingPromise: Promise<EmbeddingState> | null = null;
  private storePromise: Promise<VectorStore> | null = null;
  private storeDimension: number | null | undefined = undefined;
  /** Inode of the local table folder the open store reads; another one means it was deleted or re-created. */
  private storeInode: number | null = null;
  private storesOpening = 0;
  private passEnv: PassEnv;
  /** Passes in this process run one after another (watch + manual index). */
  private passChain: Promise<unknown> = Promise.resolve();
  private watchers = new Set<Watcher>();
  /** The pass rebuilding a store a search found damaged (one at a time), while it runs. */
  private damageRebuild: Promise<unknown> | null = null;
  private queryServer: Promise<QueryServer | null> | null = null;
  /** The manifest file as last seen by search, to notice passes by other processes. */
  private seenManifest: { mtimeMs: number; size: number } | null = null;
  /** indexedDimension()'s last manifest read, keyed by the manifest's mtime and size. */
  private dimensionRead: { key: string; dimension: number | null; checkpoint: number | null } | null = null;
  /** What searches read: the store as of the manifest's checkpoint (null: the store itself). */
  private committedView: { store: VectorStore; checkpoint: number; view: Promise<VectorStore | null> } | null = null;
  /** status()'s last look at the store's files, keyed by the manifest's record and the files on disk. */
  private damageCache: { key: string; result: string | null } | null = null;
  /** Views of earlier commits, closed a little later (a search may still be reading one). */
  private retiredViews = new Set<Promise<VectorStore | null>>();
  private recovered = false;
  private closed = false;
  private keywordOnlyAnnounced = false;
  private chunkersLoaded: Promise<void> | null = null;
  private pendingCache: { stamp: string; at: number; files: number; upToDate: number; pending: number } | null = null;
  private quirkMemory: QuirkMemory | null = null;
  /** Quirks live in their own table of the same store: index passes never see or roll back them. */
  private quirkTable: { store: Promise<VectorStore>; dimension: number | null } | null = null;
  /** The bucket-side state of an `s3://` store (null otherwise), and when searches last pulled it. */
  private shared: SharedIndex | null = null;
  private sharedRefreshedAt = 0;

  constructor(
    loaded: LoadedConfig,
    private readonly options: OpenEngineOptions,
  ) {
    this.loaded = loaded;
    this.root = loaded.root;
    this.logger = this.makeLogger();
    const self = this;
    this.passEnv = {
      root: loaded.root,
      get config() {
        return self.loaded.config;
      },
      get stateDir() {
        return self.loaded.stateDir;
      },
      get storeUri() {
        return self.loaded.storeUri;
      },
      get logger() {
        return self.logger;
      },
      embedding: () => this.embedding(),
      store: (dimension) => this.storeForIndexing(dimension),
      resetStore: (dimension) => this.resetStore(dimension),
      storeDamage: null,
      keyword: null,
      keywordGeneration: -1,
      get cpu() {
        return self.cpuBudget();
      },
      get shared() {
        return self.shared;
      },
    };
    this.shared = this.openShared();
  }

  private openShared(): SharedIndex | null {
    return openSharedIndex(this.storeUri, this.config.vectorStore.storageOptions, this.stateDir, this.logger);
  }

  /** Pulls a shared index's latest commit into the mirror (throttled): other machines' passes become visible. */
  private async refreshShared(): Promise<void> {
    if (!this.shared || Date.now() - this.sharedRefreshedAt < SHARED_REFRESH_MS) return;
    await this.shared.refresh().catch((err: unknown) => Promise.reject(plainError(err, "read", this.passEnv)));
    this.sharedRefreshedAt = Date.now();
  }

  private storageOptions(): Record<string, string> | undefined {
    return lanceStorageOptions(this.storeUri, this.config.vectorStore.storageOptions);
  }

  get config(): RagConfig {
    return this.loaded.config;
  }
  get stateDir(): string {
    return this.loaded.stateDir;
  }
  get storeUri(): string {
    return this.loaded.storeUri;
  }

  private makeLogger(): Logger {
    const level: LogLevel = isLogLevel(this.config.logging.level) ? this.config.logging.level : "info";
    const file = createFileLogger({ level, filePath: this.config.logging.logFilePath, root: this.root });
    return this.options.logger ? teeLogger(file, this.options.logger) : file;
  }

  // ---- resources -------------------------------------------------------------------------

  /** A background engine's share of the cores (`indexing.maxCpuShare`); null: every core. */
  private cpuBudget(): CpuBudget | null {
    return this.options.background ? cpuBudget(this.config.indexing.maxCpuShare, this.config.embedding.threads) : null;
  }

  /** The provider; a background engine's runs on its share of the cores, its threads at low priority. */
  private startEmbedding(): Promise<EmbeddingState> {
    const cpu = this.cpuBudget();
    if (!cpu) return createEmbeddingProvider(this.config, { root: this.root, logger: this.logger });
    const config = { ...this.config, embedding: { ...this.config.embedding, threads: cpu.embeddingThreads } };
    return lowerThreadsStartedBy(() => createEmbeddingProvider(config, { root: this.root, logger: this.logger })).then((r) => r.value);
  }

  private embedding(): Promise<EmbeddingState> {
    this.embeddingPromise ??= this.startEmbedding().then((state) => {
      if (!state.provider && !this.keywordOnlyAnnounced) {
        this.keywordOnlyAnnounced = true;
        this.logger.info("search is keyword-only", { reason: state.reason });
      }
      return state;
    });
    // A failed start (bad URL, missing key) must be retried on the next call, not cached.
    this.embeddingPromise.catch(() => (this.embeddingPromise = null));
    return this.embeddingPromise;
  }

  private async openStore(dimension: number | null, recreate: boolean): Promise<VectorStore> {
    this.storesOpening++;
    try {
      const store = await openVectorStore({
        uri: this.storeUri,
        tableName: this.config.vectorStore.tableName,
        dimension,
        recreateOnDimensionChange: recreate,
        storageOptions: this.storageOptions(),
      });
      this.storeInode = this.tableInode();
      return store;
    } finally {
      this.storesOpening--;
    }
  }

  private tableInode(): number | null {
    const table = this.localTableDir();
    if (!table) return null;
    try {
      return statSync(table).ino;
    } catch {
      return null;
    }
  }

  /**
   * True when the open store's table folder was deleted or replaced behind its back (`clear` in
   * another process, the store folder removed by hand): the handle must be dropped, since every
   * read or write through it would fail with "Not found" from then on.
   */
  private storeReplaced(): boolean {
    // While a store opens (a rebuild has just moved the damaged table aside) its inode is not
    // known yet: a search must not take the pass's fresh store for a replaced one and close it.
    if (!this.storePromise || !this.localTableDir() || this.storesOpening > 0) return false;
    return this.tableInode() !== this.storeInode;
  }

  /** Drops a store handle whose table is gone, and what was derived from it. */
  private async dropReplacedStore(): Promise<void> {
    if (!this.storeReplaced()) return;
    this.logger.info("the vector store was removed or replaced on disk; reopening it", { store: this.storeUri });
    await this.closeStore();
    this.passEnv.keyword = null;
    this.passEnv.keywordGeneration = -1;
    this.seenManifest = null;
    this.recovered = false;
  }

  /** The store for an index pass: re-created for a new dimension, moved aside when unreadable. */
  private async storeForIndexing(dimension: number | null): Promise<VectorStore> {
    await this.dropReplacedStore();
    if (this.storePromise && this.storeDimension === dimension) {
      try {
        return await this.storePromise;
      } catch {
        this.storePromise = null;
      }
    }
    await this.closeStore();
    this.storeDimension = dimension;
    this.storePromise = (async () => {
      try {
        return await this.openStore(dimension, true);
      } catch (err) {
        if (!this.moveTableAside("the vector store cannot be opened", err)) throw err;
        return await this.openStore(dimension, true);
      }
    })();
    this.storePromise.catch(() => (this.storePromise = null));
    return this.storePromise;
  }

  /** Keeps a damaged table for inspection beside the store; false when there is none to move. */
  private moveTableAside(why: string, err: unknown): boolean {
    const table = this.localTableDir();
    if (!table || !existsSync(table)) return false;
    const aside = `${table}.corrupt-${Date.now()}`;
    this.logger.error(`${why}; moving it aside and rebuilding`, { error: oneLine(err), movedTo: aside });
    renameSync(table, aside);
    return true;
  }

  /** A fresh, empty table in place of a damaged one (the pass then rebuilds); null for remote stores. */
  private async resetStore(dimension: number | null): Promise<VectorStore | null> {
    if (!this.localTableDir()) return null;
    await this.closeStore();
    this.moveTableAside("the vector store is damaged", this.passEnv.storeDamage ?? "damaged files");
    this.storeDimension = dimension;
    this.storePromise = this.openStore(dimension, true);
    this.storePromise.catch(() => (this.storePromise = null));
    return this.storePromise;
  }

  /**
   * A search that found the store damaged: the next pass rebuilds it (started right away when
   * this engine is watching), and the caller gets one line saying so.
   */
  private storeDamaged(reason: string): IndexDamagedError {
    this.passEnv.storeDamage = reason;
    const rebuilding = this.watchers.size > 0;
    // One rebuild at a time; a failed one lets the next search that finds the damage try again.
    if (rebuilding && !this.damageRebuild) {
      this.damageRebuild = this.index()
        .catch((err) => this.logger.error("rebuilding the damaged index failed", { error: oneLine(err) }))
        .finally(() => (this.damageRebuild = null));
    }
    return new IndexDamagedError(this.storeUri, reason, rebuilding);
  }

  private async storeReplacedSince(store: VectorStore): Promise<boolean> {
    const current = this.storePromise ? await this.storePromise.catch(() => null) : null;
    return current !== null && current !== store;
  }

  /** Why a failed read means damage (a missing or truncated file), or null for any other failure. */
  private async diagnoseReadFailure(store: VectorStore, err: unknown): Promise<string | null> {
    const msg = oneLine(err);
    if (/LanceError\(IO\)|Not found:|failed to fill whole buffer|No such file|corrupt|unexpected end of file/i.test(msg)) return msg;
    try {
      await store.listAll();
      return null;
    } catch (verifyErr) {
      return oneLine(verifyErr);
    }
  }

  /** The store for searching: never re-created; a dimension mismatch tells the user to re-index. */
  private async storeForSearch(dimension: number | null): Promise<VectorStore> {
    if (this.storePromise) {
      try {
        return await this.storePromise;
      } catch {
        this.storePromise = null;
      }
    }
    this.storeDimension = dimension;
    this.storePromise = this.openStore(dimension, false).catch(async (err) => {
      if (err instanceof StoreDimensionMismatchError) {
        // Vectors from another model: answer from keywords until the index is rebuilt.
        this.logger.error("stored vectors do not match the embedding model; searching keywords only until re-indexed");
        this.storeDimension = null;
        return this.openStore(null, false);
      }
      throw err;
    });
    this.storePromise.catch(() => (this.storePromise = null));
    const store = await this.storePromise;
    if (!this.recovered) {
      this.recovered = true;
      const read = readManifest(this.stateDir);
      const damage = this.passEnv.storeDamage || (read.status === "ok" ? await storeDamage(this.localTableDir(), read.manifest.storeFiles, store) : null);
      if (damage) throw this.storeDamaged(damage);
      // A shared table is only ever written under the bucket's lock: its next pass reconciles it.
      if (!this.shared) await recoverInterruptedPass(this.stateDir, store, this.logger);
    }
    return store;
  }

  private localTableDir(): string | null {
    if (isRemoteOrMemoryUri(this.storeUri)) return null;
    return join(this.storeUri, `${this.config.vectorStore.tableName}.lance`);
  }

  private async closeStore(): Promise<void> {
    const views = [...this.retiredViews, ...(this.committedView ? [this.committedView.view] : [])];
    this.retiredViews.clear();
    this.committedView = null;
    for (const v of views) await v.then((x) => x?.close()).catch(() => undefined);
    const p = this.storePromise;
    this.storePromise = null;
    this.storeDimension = undefined;
    if (p) await p.then((s) => s.close()).catch(() => undefined);
  }

  // ---- Engine ----------------------------------------------------------------------------

  /** Custom chunkers named in the config, registered once per engine (F4). */
  private loadChunkers(): Promise<void> {
    this.chunkersLoaded ??= loadCustomChunkers(this.config.chunkers, (m) => this.logger.error(m));
    this.chunkersLoaded.catch(() => (this.chunkersLoaded = null));
    return this.chunkersLoaded;
  }

  index(options: IndexOptions = {}): Promise<IndexSummary> {
    this.assertOpen();
    const run = this.passChain.then(async () => {
      await this.loadChunkers();
      // Image handler and LLM descriptions (F14): inert while description.enabled is false.
      registerDescriptionSteps({ logger: this.logger });
      beginDescriptionPass();
      return runIndexPass(this.passEnv, options);
    });
    this.passChain = run.catch(() => undefined);
    return run.then((summary) => {
      this.seenManifest = this.manifestStamp();
      // Memory re-reads its audit log (another process may have added quirks meanwhile).
      this.quirkMemory?.invalidate();
      return summary;
    }, (err: unknown) => Promise.reject(plainError(err, "pass", this.passEnv)));
  }

  private manifestStamp(): { mtimeMs: number; size: number } | null {
    try {
      const st = statSync(manifestPath(this.stateDir));
      return { mtimeMs: st.mtimeMs, size: st.size };
    } catch {
      return null;
    }
  }

  /** The keyword index of the latest committed pass, reloaded when another process commits one. */
  private currentKeyword(): KeywordIndex {
    const stamp = this.manifestStamp();
    const changed = !stamp || !this.seenManifest || stamp.mtimeMs !== this.seenManifest.mtimeMs || stamp.size !== this.seenManifest.size;
    if (this.passEnv.keyword && !changed) return this.passEnv.keyword;
    this.seenManifest = stamp;
    const read = readManifest(this.stateDir);
    if (read.status !== "ok") return this.passEnv.keyword ?? new KeywordIndex();
    if (this.passEnv.keyword && this.passEnv.keywordGeneration === read.manifest.generation) return this.passEnv.keyword;
    const loaded = loadKeywordSnapshot(this.stateDir, read.manifest);
    if (loaded) {
      this.passEnv.keyword = loaded;
      this.passEnv.keywordGeneration = read.manifest.generation;
      return loaded;
    }
    return this.passEnv.keyword ?? new KeywordIndex();
  }

  /**
   * The model's vector length for searching. A remote provider that cannot be reached must not
   * fail a search keywords can answer: use the dimension the index was built with, and no vectors.
   */
  private async searchDimension(provider: EmbeddingProvider | null): Promise<{ dimension: number | null; down: boolean }> {
    if (!provider) return { dimension: null, down: false };
    try {
      return { dimension: await provider.dimension(), down: false };
    } catch (err) {
      this.logger.error("the embedding provider is unreachable; searching keywords only", { error: oneLine(err) });
      return { ...this.indexedDimension(), down: true };
    }
  }

  /**
   * The vector length the index on disk was built with (null without a manifest). Read once
   * per manifest version: parsing the manifest of a 10k-file tree costs more than a search.
   */
  private indexedDimension(): { dimension: number | null; down: boolean } {
    return { dimension: this.committedRead().dimension, down: false };
  }

  private committedRead(): { dimension: number | null; checkpoint: number | null } {
    const stamp = this.manifestStamp();
    const key = stamp ? `${stamp.mtimeMs}:${stamp.size}` : "";
    if (this.dimensionRead?.key !== key) {
      const read = readManifest(this.stateDir);
      this.dimensionRead =
        read.status === "ok"
          ? { key, dimension: read.manifest.dimension, checkpoint: read.manifest.storeCheckpoint }
          : { key, dimension: null, checkpoint: null };
    }
    return this.dimensionRead;
  }

  /**
   * The store as the last committed pass left it. A running pass (a forced or automatic rebuild
   * above all) writes newer versions; searches keep answering from the committed one until the
   * pass commits its manifest, which names the new version.
   */
  private async committedStore(store: VectorStore): Promise<VectorStore> {
    const { checkpoint } = this.committedRead();
    if (checkpoint === null || !store.snapshot) return store;
    const cur = this.committedView;
    if (!cur || cur.store !== store || cur.checkpoint !== checkpoint) {
      if (cur) this.retireView(cur.view);
      const view = store.snapshot(checkpoint).catch((err) => {
        // A table re-created for a new model has no such version: read what is there.
        this.logger.debug("searching the latest store version", { checkpoint, reason: oneLine(err) });
        return null;
      });
      this.committedView = { store, checkpoint, view };
    }
    return (await this.committedView!.view) ?? store;
  }

  private retireView(view: Promise<VectorStore | null>): void {
    this.retiredViews.add(view);
    const t = setTimeout(() => {
      if (!this.retiredViews.delete(view)) return;
      void view.then((v) => v?.close()).catch(() => undefined);
    }, 30_000);
    t.unref?.();
  }

  /**
   * The quirk table and the provider to embed quirks with (null: keywords only). A new model
   * dimension re-creates the table; memory then re-indexes every quirk from its audit log.
   */
  private async quirkResources(): Promise<{ store: VectorStore; provider: EmbeddingProvider | null }> {
    const { provider } = await this.embedding();
    let dimension: number | null = null;
    if (provider) {
      try {
        dimension = await provider.dimension();
      } catch {
        // A provider that is down: answer from keywords with the table as it is.
        if (this.quirkTable) return { store: await this.quirkTable.store, provider: null };
      }
    }
    if (!this.quirkTable || this.quirkTable.dimension !== dimension) {
      const old = this.quirkTable;
      if (old) await old.store.then((s) => s.close()).catch(() => undefined);
      const store = openVectorStore({ uri: this.storeUri, tableName: QUIRK_TABLE, dimension, recreateOnDimensionChange: true, annMinRows: Infinity, storageOptions: this.storageOptions() });
      this.quirkTable = { store, dimension };
      store.catch(() => (this.quirkTable = null));
      if (old) this.quirkMemory?.invalidate();
    }
    return { store: await this.quirkTable.store, provider: dimension !== null ? provider : null };
  }

  async memory(): Promise<QuirkMemory> {
    this.assertOpen();
    this.quirkMemory ??= openQuirkMemory({
      stateDir: this.stateDir,
      config: () => this.config,
      store: async () => (await this.quirkResources()).store,
      embedder: async () => (await this.quirkResources()).provider,
    });
    return this.quirkMemory;
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResult[]> {
    return this.searchAttempt(query, options, 1).catch((err: unknown) => {
      throw plainError(err, "read", this.passEnv);
    });
  }

  /**
   * A rebuild may close and replace the store while a search reads it: that failure is not
   * damage (it would start yet another rebuild), so the search runs again on the new store.
   */
  private async searchAttempt(query: string, options: SearchOptions, retriesLeft: number): Promise<SearchResult[]> {
    this.assertOpen();
    await this.refreshShared();
    const { provider } = await this.embedding();
    // A keyword search needs no model at all (describe_image relies on that): the index's own
    // dimension opens the store, so a remote provider is not even probed.
    const { dimension, down } = options.mode === "keyword" ? this.indexedDimension() : await this.searchDimension(provider);
    await this.dropReplacedStore();
    let latest: VectorStore;
    try {
      latest = this.storePromise && this.storeDimension !== undefined ? await this.storePromise : await this.storeForSearch(dimension);
    } catch (err) {
      if (err instanceof IndexDamagedError) throw err;
      // A table that exists but cannot be opened (its version files gone or corrupt) is damaged.
      const table = this.localTableDir();
      if (table && existsSync(table)) throw this.storeDamaged(oneLine(err));
      throw cleaned(err);
    }
    const store = await this.committedStore(latest);
    const keyword = this.currentKeyword();
    const r = this.config.retrieval;
    const topK = options.uncapped ? (options.topK ?? r.topK) : Math.min(options.topK ?? r.topK, r.maxChunks);
    const vectorsUsable = !down && provider !== null && this.storeDimension === dimension && dimension !== null;
    let mode = options.mode ?? (r.hybrid ? "hybrid" : "vector");
    if (!vectorsUsable && mode === "vector") mode = "keyword";
    let queryVector: Float32Array | null = null;
    if (vectorsUsable && mode !== "keyword" && query.trim()) {
      try {
        // A remote embedder gets the query as redacted as the chunks it was given.
        const text = provider!.provider === "local" ? query : redact(query, "text");
        queryVector = (await provider!.embed([text], "query"))[0];
      } catch (err) {
        // A remote provider failing mid-session: keywords still answer.
        this.logger.error("embedding the query failed; searching keywords only", { error: oneLine(err) });
        mode = "keyword";
      }
    }
    try {
      return await hybridSearch({
        query,
        queryVector,
        store,
        keyword,
        topK,
        minScore: options.minScore ?? r.minScore,
        filter: options.filter,
        mode,
        rank: options.rank ?? r.rank,
        ranker: (q, candidates) => rankCandidates(q, candidates, { features: r.rankFeatures }),
      });
    } catch (err) {
      if (retriesLeft > 0 && (await this.storeReplacedSince(latest))) return this.searchAttempt(query, options, retriesLeft - 1);
      // Only a local table's files can be told damaged from a read error; in a bucket the same
      // error is far more often the network, and a rebuild there would be everyone's.
      const damage = this.localTableDir() ? await this.diagnoseReadFailure(store, err) : null;
      if (damage) throw this.storeDamaged(damage);
      throw cleaned(err);
    }
  }

  async status(options: { countPending?: boolean } = {}): Promise<IndexStatus> {
    this.assertOpen();
    await this.refreshShared();
    const read = readManifest(this.stateDir);
    const manifest = read.status === "ok" ? read.manifest : null;
    let keywordOnlyReason: string | null = null;
    let activeModel: string | null = null;
    try {
      const state = await this.embedding();
      keywordOnlyReason = state.reason;
      // Remote providers fill in their own default model when the config names none.
      activeModel = state.provider?.model ?? null;
    } catch (err) {
      keywordOnlyReason = oneLine(err);
    }
    let upToDate = 0;
    let pending = 0;
    let files = 0;
    if (manifest) {
      for (const e of Object.values(manifest.files)) if (e.chunkIds.length > 0) files++;
    }
    if (manifest && options.countPending !== false) {
      // Hosts poll status (the TUI sidebar): the walk of a big tree is reused for a few seconds
      // while the manifest is unchanged; small trees are always walked afresh.
      const stamp = `${manifest.generation}:${manifest.lastIndexedAt}`;
      const cached = this.pendingCache;
      if (cached && cached.stamp === stamp && cached.files >= STATUS_WALK_REUSE_MIN_FILES && Date.now() - cached.at < STATUS_WALK_REUSE_MS) {
        ({ upToDate, pending } = cached);
      } else {
        // Stat only: which files a pass would have to look at.
        const { files: present } = await walkWorkspace(this.root, {
          rules: ignoreRulesFor(this.passEnv),
          maxFileSizeBytes: this.config.indexing.maxFileSizeBytes,
        });
        const seen = new Set<string>();
        for (const f of present) {
          seen.add(f.path);
          const e = manifest.files[f.path];
          if (e && e.size === f.size && e.mtimeMs === f.mtimeMs) upToDate++;
          else pending++;
        }
        for (const p of Object.keys(manifest.files)) if (!seen.has(p)) pending++;
        this.pendingCache = { stamp, at: Date.now(), files: present.length, upToDate, pending };
      }
    } else if (!manifest && options.countPending !== false) {
      // Never indexed (or cleared): every file a pass would index is pending.
      const { files: present } = await walkWorkspace(this.root, {
        rules: ignoreRulesFor(this.passEnv),
        maxFileSizeBytes: this.config.indexing.maxFileSizeBytes,
      });
      pending = present.length;
    }
    const watcher = readWatcherStatus(this.stateDir);
    const progress = readProgress(this.stateDir);
    const skipped = readSkippedList(this.stateDir);
    return {
      root: this.root,
      storeUri: this.storeUri,
      stateDir: this.stateDir,
      chunks: manifest?.chunkCount ?? 0,
      files,
      provider: this.config.embedding.provider,
      model: activeModel ?? this.config.embedding.model,
      dimension: manifest?.dimension ?? null,
      keywordOnlyReason,
      manifestStatus: read.status,
      lastIndexedAt: manifest?.lastIndexedAt || null,
      upToDateFiles: upToDate,
      pendingFiles: pending,
      watch: watcher
        ? { state: watcher.state, backend: watcher.backend, updatedAt: watcher.updatedAt, message: watcher.message }
        : { state: "off" },
      indexing: progress ? { filesDone: progress.filesDone, filesTotal: progress.filesTotal, startedAt: progress.startedAt } : null,
      storeDamage: manifest && !progress ? await this.statusDamage(manifest.storeFiles) : null,
      skipped: skipped ? { total: skipped.total, files: skipped.files, omitted: skipped.omitted, updatedAt: skipped.updatedAt } : null,
    };
  }

  /** Status's look at the store's files (a read of every row only when they changed). */
  private async statusDamage(recorded: Record<string, number> | undefined): Promise<string | null> {
    if (this.passEnv.storeDamage) return this.passEnv.storeDamage;
    const table = this.localTableDir();
    // Hosts poll status: the answer is reused while neither the record nor the files change.
    const key = table ? JSON.stringify([recorded ?? null, tableFiles(table)]) : "";
    if (this.damageCache?.key === key) return this.damageCache.result;
    let opened: VectorStore | null = null;
    try {
      const result = await storeDamage(table, recorded, async () => {
        if (this.storePromise) return this.storePromise;
        opened = await this.openStore(null, false);
        return opened;
      });
      this.damageCache = { key, result };
      return result;
    } finally {
      if (opened) await (opened as VectorStore).close().catch(() => undefined);
    }
  }

  async clear(): Promise<void> {
    this.assertOpen();
    await this.passChain;
    const lock = acquireIndexLock(this.stateDir);
    try {
      const table = this.localTableDir();
      if (table) {
        await this.closeStore();
        rmSync(table, { recursive: true, force: true });
      } else if (this.shared) {
        // Under the bucket's lock: the table's rows and the index's files beside it.
        await this.shared.clear(async () => (await this.storeForIndexing(this.storeDimension ?? null)).clear());
      } else {
        const store = await this.storeForIndexing(this.storeDimension ?? null);
        await store.clear();
      }
      removeQuietly(join(this.stateDir, MANIFEST_FILE));
      rmSync(join(this.stateDir, EMBEDDING_CACHE_DIR), { recursive: true, force: true });
      if (existsSync(this.stateDir)) {
        for (const n of readdirSync(this.stateDir)) {
          if (n.startsWith(KEYWORD_FILE_PREFIX)) removeQuietly(join(this.stateDir, n));
        }
      }
      clearProgress(this.stateDir);
      this.passEnv.keyword = null;
      this.passEnv.keywordGeneration = -1;
      this.seenManifest = null;
      this.logger.info("index cleared", { store: this.storeUri });
    } finally {
      lock.release();
    }
  }

  async watch(options: WatchOptions = {}): Promise<Watcher> {
    this.assertOpen();
    const watcher = await startWatcher(
      {
        root: this.root,
        stateDir: this.stateDir,
        config: this.config,
        logger: this.logger,
        index: (o) => this.index(o),
        rules: () => ignoreRulesFor(this.passEnv),
      },
      options,
    );
    const tracked: Watcher = {
      close: async () => {
        this.watchers.delete(tracked);
        await watcher.close();
        if (this.watchers.size === 0) await this.stopQueryServer();
      },
    };
    this.watchers.add(tracked);
    if (this.config.autoIndex.serveQueries) await (this.queryServer ??= this.startQueryServer());
    return tracked;
  }

  /** Other processes' searches (core/ipc), answered by this engine while it watches. */
  private startQueryServer(): Promise<QueryServer | null> {
    return startQueryServer({
      stateDir: this.stateDir,
      fingerprint: () => queryFingerprint(this.root, this.storeUri, this.config),
      search: (query, options) => this.search(query, options),
      keywordOnlyReason: async () => (await this.embedding()).reason,
      logger: this.logger,
    }).catch((err) => {
      this.logger.error("not answering other processes' searches", { error: oneLine(err) });
      return null;
    });
  }

  private async stopQueryServer(): Promise<void> {
    const server = this.queryServer;
    this.queryServer = null;
    await (await server)?.close();
  }

  async reloadConfig(): Promise<string[]> {
    this.assertOpen();
    const next = loadEngineConfig({ ...this.options, root: this.root });
    const before = flatten(this.config);
    const after = flatten(next.config);
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]).sort();
    if (changed.length === 0 && next.storeUri === this.storeUri) return [];
    const storeMoved = next.storeUri !== this.storeUri || changed.some((k) => k.startsWith("vectorStore."));
    const embeddingChanged = changed.some((k) => k.startsWith("embedding."));
    await this.passChain;
    this.loaded = next;
    if (changed.some((k) => k.startsWith("logging."))) this.logger = this.makeLogger();
    if (embeddingChanged) {
      const old = this.embeddingPromise;
      this.embeddingPromise = null;
      this.keywordOnlyAnnounced = false;
      if (old) await old.then((s) => s.provider?.close?.()).catch(() => undefined);
      await this.closeStore(); // the dimension may differ
    }
    if (storeMoved) {
      await this.closeStore();
      this.shared?.close();
      this.shared = this.openShared();
      this.sharedRefreshedAt = 0;
      this.passEnv.keyword = null;
      this.passEnv.keywordGeneration = -1;
      this.seenManifest = null;
      this.recovered = false;
    }
    this.logger.info("configuration reloaded", { changed });
    return changed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const w of [...this.watchers]) await w.close().catch(() => undefined);
    await this.stopQueryServer();
    await this.passChain;
    this.closed = true;
    await this.closeStore();
    const quirks = this.quirkTable;
    this.quirkTable = null;
    if (quirks) await quirks.store.then((q) => q.close()).catch(() => undefined);
    const e = this.embeddingPromise;
    this.embeddingPromise = null;
    if (e) await e.then((s) => s.provider?.close?.()).catch(() => undefined);
    this.shared?.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("this engine is closed; open a new one with openEngine()");
  }
}
