// The engine's vector store: opened lazily for the dimension in use, re-created for a new one
// by an index pass, moved aside when unreadable, reopened when its table was deleted or
// replaced behind the engine's back, and read by searches as of the last commit.
import { existsSync, renameSync, statSync } from "node:fs";
import type { RagConfig } from "../config/defaults.js";
import type { Logger } from "../engine-types.js";
import type { VectorStore } from "../types.js";
import { localTableDir } from "../indexing/pass-env.js";
import { oneLine } from "../error-line.js";
import { lanceStorageOptions } from "../objectstore/s3.js";
import { openVectorStore, StoreDimensionMismatchError } from "../store/index.js";

/** Views of an earlier commit stay open this long after a newer one replaced them (a search may still read one). */
const RETIRED_VIEW_CLOSE_MS = 30_000;

export class StoreSlot {
  private opened: Promise<VectorStore> | null = null;
  /** The dimension the open store was opened for; undefined while none is open. */
  dimension: number | null | undefined = undefined;
  /** Inode of the local table folder the open store reads; another one means it was deleted or re-created. */
  private inode: number | null = null;
  private opening = 0;
  /** What searches read: the store as of the manifest's checkpoint (null: the store itself). */
  private committedView: { store: VectorStore; checkpoint: number; view: Promise<VectorStore | null> } | null = null;
  private retiredViews = new Set<Promise<VectorStore | null>>();
  /** Whether searches have checked the open store for damage and a killed pass's rows. */
  recovered = false;

  constructor(
    private readonly settings: () => { storeUri: string; config: RagConfig },
    private readonly logger: () => Logger,
  ) {}

  /** The local table folder, or null for object storage and memory://. */
  tableDir(): string | null {
    return localTableDir(this.settings());
  }

  /** The open store, if one is open or opening. */
  current(): Promise<VectorStore> | null {
    return this.opened;
  }

  async open(dimension: number | null, recreate: boolean): Promise<VectorStore> {
    const { storeUri, config } = this.settings();
    this.opening++;
    try {
      const store = await openVectorStore({
        uri: storeUri,
        tableName: config.vectorStore.tableName,
        dimension,
        recreateOnDimensionChange: recreate,
        // Vector searches scan the 4-bit codes the keyword index keeps (core/keyword/vector-codes.ts):
        // the table needs no ANN index, and no pass builds one.
        annMinRows: Infinity,
        storageOptions: lanceStorageOptions(storeUri, config.vectorStore.storageOptions),
      });
      this.inode = this.tableInode();
      return store;
    } finally {
      this.opening--;
    }
  }

  private tableInode(): number | null {
    const table = this.tableDir();
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
  private replaced(): boolean {
    // While a store opens (a rebuild has just moved the damaged table aside) its inode is not
    // known yet: a search must not take the pass's fresh store for a replaced one and close it.
    if (!this.opened || !this.tableDir() || this.opening > 0) return false;
    return this.tableInode() !== this.inode;
  }

  /** Drops a store handle whose table is gone; true when it did (what was derived from it must go too). */
  async dropIfReplaced(): Promise<boolean> {
    if (!this.replaced()) return false;
    this.logger().info("the vector store was removed or replaced on disk; reopening it", { store: this.settings().storeUri });
    await this.close();
    this.recovered = false;
    return true;
  }

  /** The store for an index pass: re-created for a new dimension, moved aside when unreadable. */
  async forIndexing(dimension: number | null): Promise<VectorStore> {
    if (this.opened && this.dimension === dimension) {
      try {
        return await this.opened;
      } catch {
        this.opened = null;
      }
    }
    await this.close();
    this.dimension = dimension;
    this.opened = (async () => {
      try {
        return await this.open(dimension, true);
      } catch (err) {
        if (!this.moveTableAside("the vector store cannot be opened", err)) throw err;
        return await this.open(dimension, true);
      }
    })();
    this.opened.catch(() => (this.opened = null));
    return this.opened;
  }

  /** The store for searching: never re-created; vectors of another model leave it keyword-only. */
  async forSearch(dimension: number | null): Promise<VectorStore> {
    if (this.opened) {
      try {
        return await this.opened;
      } catch {
        this.opened = null;
      }
    }
    this.dimension = dimension;
    this.opened = this.open(dimension, false).catch(async (err) => {
      if (err instanceof StoreDimensionMismatchError) {
        // Vectors from another model: answer from keywords until the index is rebuilt.
        this.logger().error("stored vectors do not match the embedding model; searching keywords only until re-indexed");
        this.dimension = null;
        return this.open(null, false);
      }
      throw err;
    });
    this.opened.catch(() => (this.opened = null));
    return this.opened;
  }

  /** Keeps a damaged table for inspection beside the store; false when there is none to move. */
  moveTableAside(why: string, err: unknown): boolean {
    const table = this.tableDir();
    if (!table || !existsSync(table)) return false;
    const aside = `${table}.corrupt-${Date.now()}`;
    this.logger().error(`${why}; moving it aside and rebuilding`, { error: oneLine(err), movedTo: aside });
    renameSync(table, aside);
    return true;
  }

  /** A fresh, empty table in place of a damaged one (the pass then rebuilds); null for remote stores. */
  async reset(dimension: number | null, damage: unknown): Promise<VectorStore | null> {
    if (!this.tableDir()) return null;
    await this.close();
    this.moveTableAside("the vector store is damaged", damage);
    this.dimension = dimension;
    this.opened = this.open(dimension, true);
    this.opened.catch(() => (this.opened = null));
    return this.opened;
  }

  /** Whether a rebuild replaced `store` since a search took it. */
  async replacedSince(store: VectorStore): Promise<boolean> {
    const current = this.opened ? await this.opened.catch(() => null) : null;
    return current !== null && current !== store;
  }

  /**
   * The store as the last committed pass left it. A running pass (a forced or automatic rebuild
   * above all) writes newer versions; searches keep answering from the committed one until the
   * pass commits its manifest, which names the new version.
   */
  async committed(store: VectorStore, checkpoint: number | null): Promise<VectorStore> {
    if (checkpoint === null || !store.snapshot) return store;
    const cur = this.committedView;
    if (!cur || cur.store !== store || cur.checkpoint !== checkpoint) {
      if (cur) this.retireView(cur.view);
      const view = store.snapshot(checkpoint).catch((err) => {
        // A table re-created for a new model has no such version: read what is there.
        this.logger().debug("searching the latest store version", { checkpoint, reason: oneLine(err) });
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
    }, RETIRED_VIEW_CLOSE_MS);
    t.unref?.();
  }

  async close(): Promise<void> {
    const views = [...this.retiredViews, ...(this.committedView ? [this.committedView.view] : [])];
    this.retiredViews.clear();
    this.committedView = null;
    for (const v of views) await v.then((x) => x?.close()).catch(() => undefined);
    const p = this.opened;
    this.opened = null;
    this.dimension = undefined;
    if (p) await p.then((s) => s.close()).catch(() => undefined);
  }
}
