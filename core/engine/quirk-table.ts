// Quirk memory's own table in the engine's store (index passes never see or roll it back),
// and the provider quirks are embedded with.
import type { RagConfig } from "../config/defaults.js";
import type { EmbeddingProvider, VectorStore } from "../types.js";
import { openQuirkMemory, QUIRK_TABLE } from "../memory/index.js";
import type { QuirkMemory } from "../memory/quirks.js";
import { lanceStorageOptions } from "../objectstore/s3.js";
import { openVectorStore } from "../store/index.js";
import type { EmbeddingSlot } from "./embedding-slot.js";

export class QuirkTable {
  private memory: QuirkMemory | null = null;
  private table: { store: Promise<VectorStore>; dimension: number | null } | null = null;

  constructor(
    private readonly settings: () => { storeUri: string; stateDir: string; config: RagConfig },
    private readonly embedding: EmbeddingSlot,
  ) {}

  open(): QuirkMemory {
    this.memory ??= openQuirkMemory({
      stateDir: this.settings().stateDir,
      config: () => this.settings().config,
      store: async () => (await this.resources()).store,
      embedder: async () => (await this.resources()).provider,
    });
    return this.memory;
  }

  /** Memory re-reads its audit log (another process may have added quirks meanwhile). */
  invalidate(): void {
    this.memory?.invalidate();
  }

  /**
   * The quirk table and the provider to embed quirks with (null: keywords only). A new model
   * dimension re-creates the table; memory then re-indexes every quirk from its audit log.
   */
  private async resources(): Promise<{ store: VectorStore; provider: EmbeddingProvider | null }> {
    const { provider } = await this.embedding.get();
    let dimension: number | null = null;
    if (provider) {
      try {
        dimension = await provider.dimension();
      } catch {
        // A provider that is down: answer from keywords with the table as it is.
        if (this.table) return { store: await this.table.store, provider: null };
      }
    }
    if (!this.table || this.table.dimension !== dimension) {
      const old = this.table;
      if (old) await old.store.then((s) => s.close()).catch(() => undefined);
      const { storeUri, config } = this.settings();
      const storageOptions = lanceStorageOptions(storeUri, config.vectorStore.storageOptions);
      const store = openVectorStore({ uri: storeUri, tableName: QUIRK_TABLE, dimension, recreateOnDimensionChange: true, annMinRows: Infinity, storageOptions });
      this.table = { store, dimension };
      store.catch(() => (this.table = null));
      if (old) this.memory?.invalidate();
    }
    return { store: await this.table.store, provider: dimension !== null ? provider : null };
  }

  async close(): Promise<void> {
    const table = this.table;
    this.table = null;
    if (table) await table.store.then((q) => q.close()).catch(() => undefined);
  }
}
