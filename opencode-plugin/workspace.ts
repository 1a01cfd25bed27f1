// One workspace as the plugin sees it: the engine (opened lazily, re-tried after a failure so a
// fixed config is picked up), config reloads when runtime overrides change, the session log,
// the logger and the background indexer. Every hook and tool goes through it.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Engine, Logger, Watcher } from "../core/engine-types.js";
import { DEFAULT_CONFIG, type RagConfig } from "../core/config/defaults.js";
import { findConfigFile, loadConfig, resolveStore, RUNTIME_OVERRIDES_FILE } from "../core/config/load.js";
import { createFileLogger, silentLogger } from "../core/logging/index.js";
import { SessionLog } from "../core/telemetry/session-log.js";
import type { CoreDeps } from "./deps.js";

export class RagWorkspace {
  readonly sessionLog: SessionLog;
  logger: Logger = silentLogger;
  private enginePromise: Promise<Engine> | null = null;
  private openedEngine: Engine | null = null;
  private lastOpenError: Error | null = null;
  private watcher: Watcher | null = null;
  /** Restarts of the indexer, one after the other (a config change may come while one is under way). */
  private indexerChange: Promise<void> = Promise.resolve();
  private watchedStamp = "";
  private closed = false;
  /** The config as last loaded without the engine (init time, or when the engine cannot open). */
  private looseConfig: RagConfig = DEFAULT_CONFIG;
  readonly stateDir: string;

  constructor(
    readonly root: string,
    readonly deps: CoreDeps,
    options: { logger?: Logger; /** The log records' component field (default "plugin"). */ component?: string } = {},
  ) {
    let stateDir = resolveStore(DEFAULT_CONFIG, root).stateDir;
    try {
      const loaded = loadConfig({ root });
      this.looseConfig = loaded.config;
      stateDir = loaded.stateDir;
      this.logger = options.logger ?? createFileLogger({ level: loaded.config.logging.level as "info", filePath: loaded.config.logging.logFilePath, root, fields: { component: options.component ?? "plugin" } });
    } catch (err) {
      this.lastOpenError = err as Error;
      this.logger = options.logger ?? createFileLogger({ level: "info", filePath: DEFAULT_CONFIG.logging.logFilePath, root, fields: { component: options.component ?? "plugin" } });
      this.logger.error("config could not be loaded", { error: err as Error });
    }
    this.stateDir = stateDir;
    // F37: session logs keep what was said, never the secrets in it.
    this.sessionLog = new SessionLog(stateDir);
    this.watchedStamp = this.configStamp();
  }

  /** The current config: the engine's when open, else the last one that loaded, else defaults. */
  get config(): RagConfig {
    return this.openedEngine?.config ?? this.looseConfig;
  }

  /** The engine, opening it on first use; a failed open is retried on the next call. */
  async engine(): Promise<Engine> {
    if (this.closed) throw new Error("opencode-rag: the plugin is shutting down");
    if (!this.enginePromise) {
      // The engine keeps its own log (same file); handing it ours would write every line twice.
      this.enginePromise = this.deps.openEngine({ root: this.root, background: true }).then(
        (engine) => {
          this.openedEngine = engine;
          this.lastOpenError = null;
          return engine;
        },
        (err: Error) => {
          this.enginePromise = null;
          this.lastOpenError = err;
          this.logger.error("engine could not be opened", { error: err });
          throw err;
        },
      );
    }
    const engine = await this.enginePromise;
    await this.refreshConfig();
    return engine;
  }

  /** The last reason the engine could not open, if it has not opened since. */
  get openError(): Error | null {
    return this.openedEngine ? null : this.lastOpenError;
  }

  /** mtimes of the config file and runtime overrides: a cheap "did anything change" probe. */
  private configStamp(): string {
    const files = [findConfigFile(this.root), join(this.stateDir, RUNTIME_OVERRIDES_FILE)];
    return files
      .map((f) => {
        if (!f) return "-";
        try {
          const s = statSync(f);
          return `${s.mtimeMs}:${s.size}`;
        } catch {
          return "-";
        }
      })
      .join("|");
  }

  /** Re-reads config when its files changed since the last look (two stats when nothing did). */
  async refreshConfig(): Promise<string[]> {
    const stamp = this.configStamp();
    if (stamp === this.watchedStamp || !this.openedEngine) return [];
    this.watchedStamp = stamp;
    try {
      const changed = await this.openedEngine.reloadConfig();
      if (changed.length > 0) {
        this.logger.info("config reloaded", { changed });
        // Not awaited: a restart waits for the watcher's running pass to end (one run apart is stopped).
        if (changed.some((k) => k.startsWith("autoIndex"))) this.startIndexer();
      }
      return changed;
    } catch (err) {
      this.logger.error("config reload failed; keeping the previous config", { error: err as Error });
      return [];
    }
  }

  /**
   * Starts the background indexer (F27) without blocking the caller: opens the engine, then
   * watches the workspace, starting with a pass over all of it. The watcher runs a big pass (a
   * first index, a rebuild, a branch switch) in a process of its own, so its memory does not stay
   * with OpenCode (core/indexing/pass-apart.ts). Failures are logged only.
   */
  startIndexer(): void {
    void this.restartIndexer().catch((err: Error) => this.logger.error("background indexer failed to start", { error: err }));
  }

  private restartIndexer(): Promise<void> {
    const next = this.indexerChange.then(() => this.startWatching());
    this.indexerChange = next.catch(() => undefined);
    return next;
  }

  private async startWatching(): Promise<void> {
    if (this.watcher) {
      const old = this.watcher;
      this.watcher = null;
      await old.close().catch(() => undefined);
    }
    const engine = await this.engine();
    const auto = engine.config.autoIndex;
    if (!auto.enabled || this.closed) return;
    this.watcher = await engine.watch({
      backend: auto.backend as "chokidar" | "git",
      debounceMs: auto.debounceMs,
      intervalMs: auto.intervalMs,
      // chokidar reports changes from now on only; one pass catches up with what changed while
      // OpenCode was closed (the git backend's first poll does that itself).
      catchUp: true,
      onPass: (s) => this.logger.info("background pass done", { filesIndexed: s.filesIndexed, filesDeleted: s.filesDeleted, durationMs: s.durationMs }),
      onError: (err) => this.logger.error("background pass failed", { error: err }),
    });
    if (this.closed) {
      await this.watcher.close().catch(() => undefined);
      return;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.watcher?.close().catch(() => undefined);
    this.watcher = null;
    const engine = this.openedEngine;
    this.openedEngine = null;
    this.enginePromise = null;
    await engine?.close().catch(() => undefined);
  }
}
