// The Engine: one workspace's index behind the contract in engine-types.ts. Hosts (CLI,
// OpenCode plugin, TUI, eval) hold one and never reach into the store or the indexer.
// A thin facade: each job is a module in engine/ (see docs/architecture.md):
//   config.ts           the config files plus the host's overrides; what a reload changed
//   embedding-slot.ts   the embedding provider, started once and shared
//   store-slot.ts       the vector store's lifecycle, and the committed view searches read
//   committed-index.ts  what the last commit says: dimension, checkpoint, keyword index
//   query.ts            the query path
//   status.ts           status()
//   quirk-table.ts      quirk memory's table
//   clear.ts            clear()
import type { RagConfig } from "./config/defaults.js";
import { isRemoteOrMemoryUri, type LoadedConfig } from "./config/load.js";
import type { Engine, IndexOptions, IndexStatus, IndexSummary, Logger, LogLevel, OpenEngineOptions, SearchOptions, Watcher, WatchOptions } from "./engine-types.js";
import type { SearchResult, VectorStore } from "./types.js";
import { createFileLogger, isLogLevel, teeLogger } from "./logging/index.js";
// What only an index pass or a watcher needs (the pass, chunking, descriptions) is imported
// when one starts: a process that only searches does not compile it.
import type { PassEnv } from "./indexing/indexer.js";
import { recoverInterruptedPass } from "./indexing/recover.js";
import { oneLine } from "./error-line.js";
import { plainError } from "./errors/plain-error.js";
import { storeDamage } from "./indexing/store-files.js";
import { committedFileCount, readManifestHeader } from "./indexing/manifest.js";
import { ignoreRulesFor } from "./indexing/workspace-rules.js";
import { openSharedIndex, type SharedIndex } from "./indexing/shared-index.js";
import { startQueryServer, type QueryServer } from "./ipc/query-server.js";
import { queryFingerprint } from "./ipc/query-socket.js";
import type { QuirkMemory } from "./memory/quirks.js";
import { clearIndex } from "./engine/clear.js";
import { CommittedIndex, type CommittedHeader } from "./engine/committed-index.js";
import { changedKeys, loadEngineConfig } from "./engine/config.js";
import { EmbeddingSlot } from "./engine/embedding-slot.js";
import { runQuery, type QueryContext } from "./engine/query.js";
import { QuirkTable } from "./engine/quirk-table.js";
import { keywordOnlyReasonOf, StatusReader } from "./engine/status.js";
import { DamageRebuilds } from "./engine/store-damage.js";
import { StoreSlot } from "./engine/store-slot.js";
import { pathHintsUnder } from "./files/path-hints.js";
import type { PathHints } from "./path-class.js";

/** A shared index's manifest is looked up in the bucket at most this often by searches. */
const SHARED_REFRESH_MS = 1000;

/** Opens the engine for a workspace. Throws ConfigError (one line per problem) on bad config. */
export async function openEngine(options: OpenEngineOptions = {}): Promise<Engine> {
  const loaded = loadEngineConfig(options);
  return new WorkspaceEngine(loaded, options);
}

class WorkspaceEngine implements Engine {
  readonly root: string;
  private loaded: LoadedConfig;
  private logger: Logger;
  private readonly passEnv: PassEnv;
  private readonly embedding: EmbeddingSlot;
  private readonly store: StoreSlot;
  private readonly committed: CommittedIndex;
  private readonly damage: DamageRebuilds;
  private readonly quirks: QuirkTable;
  private readonly statusReader = new StatusReader();
  private readonly query: QueryContext;
  /** What the workspace's files tell of their paths, as of the committed index it was read for (`pathHints`). */
  private hints: { index: CommittedHeader; hints: PathHints } | null = null;
  /** Passes in this process run one after another (watch + manual index). */
  private passChain: Promise<unknown> = Promise.resolve();
  private watchers = new Set<Watcher>();
  private queryServer: Promise<QueryServer | null> | null = null;
  private chunkersLoaded: Promise<void> | null = null;
  private closed = false;
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
    const logger = () => this.logger;
    this.embedding = new EmbeddingSlot(this.root, () => this.config, logger, !!options.background);
    this.store = new StoreSlot(() => this.loaded, logger);
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
      embedding: () => this.embedding.get(),
      store: async (dimension) => {
        await this.dropReplacedStore();
        return this.store.forIndexing(dimension);
      },
      resetStore: (dimension) => this.store.reset(dimension, this.passEnv.storeDamage ?? "damaged files"),
      storeDamage: null,
      keyword: null,
      keywordGeneration: -1,
      get cpu() {
        return self.embedding.cpuBudget();
      },
      get shared() {
        return self.shared;
      },
    };
    this.committed = new CommittedIndex(() => this.stateDir, this.passEnv);
    this.damage = new DamageRebuilds(this.passEnv, () => this.storeUri, logger, () => this.watchers.size > 0, () => this.index());
    this.quirks = new QuirkTable(() => this.loaded, this.embedding);
    this.query = {
      get config() {
        return self.config;
      },
      get logger() {
        return self.logger;
      },
      embedding: this.embedding,
      store: this.store,
      committed: this.committed,
      damage: this.damage,
      refreshShared: () => this.refreshShared(),
      dropReplacedStore: () => this.dropReplacedStore(),
      recoverOnce: (store) => this.recoverOnce(store),
      pathHints: (index) => this.pathHints(index),
    };
    this.shared = this.openShared();
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

  /** The path hints of the committed index the search read: a pass may have changed a package.json or a generated file. */
  private pathHints(index: CommittedHeader): PathHints {
    if (this.hints?.index !== index) this.hints = { index, hints: pathHintsUnder(this.root) };
    return this.hints.hints;
  }

  private makeLogger(): Logger {
    const level: LogLevel = isLogLevel(this.config.logging.level) ? this.config.logging.level : "info";
    const file = createFileLogger({ level, filePath: this.config.logging.logFilePath, root: this.root });
    return this.options.logger ? teeLogger(file, this.options.logger) : file;
  }

  private openShared(): SharedIndex | null {
    return openSharedIndex(this.storeUri, this.config.vectorStore.storageOptions, this.stateDir, this.logger);
  }

  /** A failure of a known kind as the plain line a user reads (see core/errors), else as it came. */
  private plain(err: unknown, during: "pass" | "read"): unknown {
    const { root, storeUri, stateDir, logger } = this.passEnv;
    return plainError(err, during, { root, storeUri, stateDir, logger, committedFiles: () => committedFileCount(stateDir) });
  }

  /** Pulls a shared index's latest commit into the mirror (throttled): other machines' passes become visible. */
  private async refreshShared(): Promise<void> {
    if (!this.shared || Date.now() - this.sharedRefreshedAt < SHARED_REFRESH_MS) return;
    await this.shared.refresh().catch((err: unknown) => Promise.reject(this.plain(err, "read")));
    this.sharedRefreshedAt = Date.now();
  }

  /** A store whose table was deleted or replaced on disk is dropped, with what was read from it. */
  private async dropReplacedStore(): Promise<void> {
    if (await this.store.dropIfReplaced()) this.committed.forget();
  }

  /** The first search of an opened store: damage found, or a killed pass's rows rolled back. */
  private async recoverOnce(store: VectorStore): Promise<void> {
    if (this.store.recovered) return;
    this.store.recovered = true;
    const read = readManifestHeader(this.stateDir);
    const damage = this.passEnv.storeDamage || (read.status === "ok" ? await storeDamage(this.store.tableDir(), read.header.storeFiles, store) : null);
    if (damage) throw this.damage.found(damage);
    // A shared table is only ever written under the bucket's lock: its next pass reconciles it.
    if (!this.shared) await recoverInterruptedPass(this.stateDir, store, this.logger);
  }

  /** Custom chunkers named in the config, registered once per engine (F4). */
  private loadChunkers(): Promise<void> {
    this.chunkersLoaded ??= import("./chunking/index.js").then(({ loadCustomChunkers }) => loadCustomChunkers(this.config.chunkers, (m) => this.logger.error(m)));
    this.chunkersLoaded.catch(() => (this.chunkersLoaded = null));
    return this.chunkersLoaded;
  }

  // ---- Engine ----------------------------------------------------------------------------

  index(options: IndexOptions = {}): Promise<IndexSummary> {
    this.assertOpen();
    const run = this.passChain.then(async () => {
      await this.loadChunkers();
      const [{ runIndexPass }, { beginDescriptionPass, registerDescriptionSteps }] = await Promise.all([import("./indexing/indexer.js"), import("./description/index.js")]);
      // Image handler and LLM descriptions (F14): inert while description.enabled is false.
      registerDescriptionSteps({ logger: this.logger });
      beginDescriptionPass();
      return runIndexPass(this.passEnv, options);
    });
    this.passChain = run.catch(() => undefined);
    return run.then((summary) => {
      this.committed.passCommitted();
      this.quirks.invalidate();
      return summary;
    }, (err: unknown) => Promise.reject(this.plain(err, "pass")));
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResult[]> {
    this.assertOpen();
    return runQuery(this.query, query, options).catch((err: unknown) => Promise.reject(this.plain(err, "read")));
  }

  async status(options: { countPending?: boolean } = {}): Promise<IndexStatus> {
    this.assertOpen();
    await this.refreshShared();
    const { root, storeUri, stateDir, config, passEnv, embedding, store } = this;
    return this.statusReader.read({ root, storeUri, stateDir, config, passEnv, embedding, store }, options);
  }

  async memory(): Promise<QuirkMemory> {
    this.assertOpen();
    return this.quirks.open();
  }

  async clear(): Promise<void> {
    this.assertOpen();
    await this.passChain;
    await clearIndex({
      stateDir: this.stateDir,
      storeUri: this.storeUri,
      logger: this.logger,
      store: this.store,
      shared: this.shared,
      storeForIndexing: () => this.passEnv.store(this.store.dimension ?? null),
    });
    this.committed.forget();
  }

  async watch(options: WatchOptions = {}): Promise<Watcher> {
    this.assertOpen();
    const [{ startWatcher }, { passesApart }] = await Promise.all([import("./indexing/watch.js"), import("./indexing/pass-apart.js")]);
    // A child reads the config from the workspace's files, as the CLI does: not for an engine
    // given overrides in code (tests, eval); nor for an index in memory or in a bucket, built
    // where its engine is.
    const apartHere = this.options.overrides == null && !isRemoteOrMemoryUri(this.storeUri);
    const apart = options.passesApart !== undefined ? options.passesApart : apartHere ? passesApart(this.root, { configPath: this.options.configPath ? (this.loaded.configFile ?? undefined) : undefined }) : null;
    const watcher = await startWatcher(
      {
        root: this.root,
        stateDir: this.stateDir,
        config: this.config,
        logger: this.logger,
        index: (o) => this.index(o),
        rules: () => ignoreRulesFor(this.passEnv),
      },
      { ...options, passesApart: apart },
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
      keywordOnlyReason: async () => keywordOnlyReasonOf(await this.embedding.get(), this.committed.read().model),
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
    const changed = changedKeys(this.config, next.config);
    if (changed.length === 0 && next.storeUri === this.storeUri) return [];
    const storeMoved = next.storeUri !== this.storeUri || changed.some((k) => k.startsWith("vectorStore."));
    const embeddingChanged = changed.some((k) => k.startsWith("embedding."));
    await this.passChain;
    this.loaded = next;
    if (changed.some((k) => k.startsWith("logging."))) this.logger = this.makeLogger();
    if (embeddingChanged) {
      await this.embedding.close();
      await this.store.close(); // the dimension may differ
    }
    if (storeMoved) {
      await this.store.close();
      this.shared?.close();
      this.shared = this.openShared();
      this.sharedRefreshedAt = 0;
      this.committed.forget();
      this.store.recovered = false;
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
    await this.store.close();
    await this.quirks.close();
    await this.embedding.close();
    this.shared?.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("this engine is closed; open a new one with openEngine()");
  }
}
