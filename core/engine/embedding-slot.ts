// The engine's embedding provider: started on first use, shared by passes, searches and
// memory; a failed start is retried on the next call instead of cached.
import type { RagConfig } from "../config/defaults.js";
import type { Logger } from "../engine-types.js";
import type { EmbeddingProvider } from "../types.js";
import { createEmbeddingProvider } from "../embedding/index.js";
import { cpuBudget, lowerThreadsStartedBy, type CpuBudget } from "../indexing/cpu-share.js";

export interface EmbeddingState {
  provider: EmbeddingProvider | null;
  reason: string | null;
}

export class EmbeddingSlot {
  private started: Promise<EmbeddingState> | null = null;
  private keywordOnlyAnnounced = false;

  constructor(
    private readonly root: string,
    private readonly config: () => RagConfig,
    private readonly logger: () => Logger,
    /** A background engine (the plugin, a watcher) keeps to its share of the cores. */
    private readonly background: boolean,
  ) {}

  /** A background engine's share of the cores (`indexing.maxCpuShare`); null: every core. */
  cpuBudget(): CpuBudget | null {
    const config = this.config();
    return this.background ? cpuBudget(config.indexing.maxCpuShare, config.embedding.threads) : null;
  }

  get(): Promise<EmbeddingState> {
    this.started ??= this.start().then((state) => {
      if (!state.provider && !this.keywordOnlyAnnounced) {
        this.keywordOnlyAnnounced = true;
        this.logger().info("search is keyword-only", { reason: state.reason });
      }
      return state;
    });
    // A failed start (bad URL, missing key) must be retried on the next call, not cached.
    this.started.catch(() => (this.started = null));
    return this.started;
  }

  /** Closes the provider; the next get() starts one from the config as it is then. */
  async close(): Promise<void> {
    const old = this.started;
    this.started = null;
    this.keywordOnlyAnnounced = false;
    if (old) await old.then((s) => s.provider?.close?.()).catch(() => undefined);
  }

  /** The provider; a background engine's runs on its share of the cores, its threads at low priority. */
  private start(): Promise<EmbeddingState> {
    const cpu = this.cpuBudget();
    const config = this.config();
    const logger = this.logger();
    if (!cpu) return createEmbeddingProvider(config, { root: this.root, logger });
    const limited = { ...config, embedding: { ...config.embedding, threads: cpu.embeddingThreads } };
    return lowerThreadsStartedBy(() => createEmbeddingProvider(limited, { root: this.root, logger })).then((r) => r.value);
  }
}
