// The VectorStore contract on LanceDB (Node only: native bindings). The location is a URI handed
// to LanceDB untouched (a folder, memory://, s3://, gs://, az://, db://) with its storage options.
import type * as LanceDb from "@lancedb/lancedb";
import { createRequire } from "node:module";
import type * as Arrow from "apache-arrow";
import type { Field, Schema } from "apache-arrow";
import type { ChunkRecord, ScoredId, SearchFilter, VectorStore } from "../types.js";
import { filterToSql, sqlString } from "./filter.js";
import { cosineDistanceToScore, validateQueryVector, validateRowVector } from "./vectors.js";
import { oneLine } from "../error-line.js";

/**
 * LanceDB's Rust core logs warnings to stderr unless told otherwise, and hosts own the
 * terminal. The level is read when the native module loads, so the module is imported only
 * after LANCEDB_LOG has been defaulted to "error" (a user's own setting wins).
 */
let lancedbModule: Promise<typeof LanceDb> | null = null;
function loadLanceDb(): Promise<typeof LanceDb> {
  if (process.env.LANCEDB_LOG === undefined) process.env.LANCEDB_LOG = "error";
  return (lancedbModule ??= import("@lancedb/lancedb"));
}

/**
 * apache-arrow's CommonJS build: the copy LanceDB itself requires. Importing the package from
 * ESM loaded its ESM build as a second Arrow (~150 ms of every cold start, before anything
 * ran); required here it is loaded once, and only when a schema is built.
 */
let arrowModule: typeof Arrow | null = null;
function arrow(): typeof Arrow {
  return (arrowModule ??= createRequire(import.meta.url)("apache-arrow") as typeof Arrow);
}

type Row = ChunkRecord & { vector: Float32Array | null };

/** Columns other than the vector, in table order. */
const TEXT_COLUMNS = ["id", "content", "filePath", "language", "kind", "symbol", "context", "contentHash", "description"] as const;
const RECORD_COLUMNS = [...TEXT_COLUMNS, "startLine", "endLine"];
/** A vector search names `_distance` itself (LanceDB warns when it is added implicitly). */
const VECTOR_RESULT_COLUMNS = [...RECORD_COLUMNS, "_distance"];

/**
 * From this many rows on, checkpoints build an ANN index. LanceDB's flat search costs about
 * 4 ms at 1k rows of 256-d, 8 ms at 4k and 16 ms at 6k, HNSW-SQ about 3 ms at all three
 * (2 cores); building it takes 0.16 s at 2k rows.
 */
export const DEFAULT_ANN_MIN_ROWS = 2_000;
/** Rows added between two looks at how much of the table the ANN index misses. */
const ANN_CHECK_EVERY = 2_000;
/** The HNSW search beam: this many candidates per result wanted, and never fewer than the minimum. */
const ANN_BEAM_PER_RESULT = 12;
const ANN_BEAM_MIN = 256;
/**
 * IVF partitions of the HNSW index, each a graph of its own: one per 40k rows, at most 16 (a
 * search probes 20). On 172k rows of the bench tree's vectors, 4 partitions instead of one built
 * in 28 s instead of 34 and found 95% of the exact top 10 instead of 83% (every partition is
 * walked with the full beam), at the same search time and peak memory.
 */
function annPartitions(rows: number): number {
  return Math.min(16, Math.max(1, Math.round(rows / 40_000)));
}

/** Small fragments (one per add()) tolerated before compact() rewrites them as one. */
const COMPACT_AT_SMALL_FRAGMENTS = 24;
/** Table versions younger than this survive compaction (a search in another process may still read them). */
const VERSION_GRACE_MS = 60_000;
/** Extra rows fetched when only the implicit no-quirks filter applies (it runs after the search). */
const POSTFILTER_MARGIN = 16;
/** `id IN (...)` lists are sent in slices of this size to keep the SQL small. */
const ID_BATCH = 512;
/** Records read by recent searches and fetches (dropped on any table change), so repeated reads cost no scan. */
const RECORD_CACHE_SIZE = 4096;

export interface LanceStoreOptions {
  uri: string;
  tableName: string;
  /** Vector length; null for a keyword-only store (no vector column). */
  dimension: number | null;
  /**
   * When the table on disk holds vectors of another dimension (a model change): drop and
   * recreate it (the indexer is about to rebuild) instead of throwing.
   */
  recreateOnDimensionChange?: boolean;
  /** Rows from which checkpoint() builds an ANN index; Infinity disables it. */
  annMinRows?: number;
  /** Passed to LanceDB for object stores (credentials, region, endpoint). */
  storageOptions?: Record<string, string>;
}

/** Thrown when a store's vectors do not match the model in use. */
export class StoreDimensionMismatchError extends Error {
  constructor(
    readonly uri: string,
    readonly storedDimension: number | null,
    readonly requestedDimension: number | null,
  ) {
    super(
      `vector store ${uri} holds ${describeDim(storedDimension)} but the embedding model gives ${describeDim(requestedDimension)}: ` +
        "run `opencode-rag index --force` to rebuild it",
    );
    this.name = "StoreDimensionMismatchError";
  }
}

function describeDim(d: number | null): string {
  return d === null ? "no vectors (keyword-only)" : `${d}-dimensional vectors`;
}

export function chunkSchema(dimension: number | null): Schema {
  const { Field, FixedSizeList, Float32, Int32, Schema, Utf8 } = arrow();
  const fields: Field[] = [new Field("id", new Utf8(), false), new Field("content", new Utf8(), false)];
  if (dimension !== null) {
    // Nullable: a chunk whose embedding failed is still stored (and found by keyword search).
    fields.push(new Field("vector", new FixedSizeList(dimension, new Field("item", new Float32(), true)), true));
  }
  fields.push(
    new Field("filePath", new Utf8(), false),
    new Field("startLine", new Int32(), false),
    new Field("endLine", new Int32(), false),
    new Field("language", new Utf8(), false),
    new Field("kind", new Utf8(), false),
    new Field("symbol", new Utf8(), false),
    new Field("context", new Utf8(), false),
    new Field("contentHash", new Utf8(), false),
    new Field("description", new Utf8(), false),
  );
  return new Schema(fields);
}

/** The vector length of a table's schema, or null when it has no vector column. */
function schemaDimension(schema: Schema): number | null {
  const field = schema.fields.find((f) => f.name === "vector");
  if (!field) return null;
  const type = field.type as { listSize?: number };
  return typeof type.listSize === "number" ? type.listSize : null;
}

export async function openLanceStore(options: LanceStoreOptions): Promise<LanceVectorStore> {
  const { uri, tableName } = options;
  if (!uri) throw new Error("vectorStore.path is empty: set it to a folder, memory:// or a LanceDB URI");
  if (!/^[A-Za-z0-9_.-]+$/.test(tableName)) {
    throw new Error(`vectorStore.tableName ${JSON.stringify(tableName)} is invalid: use letters, digits, '_', '-' or '.'`);
  }
  const lancedb = await loadLanceDb();
  let db: LanceDb.Connection;
  try {
    // readConsistencyInterval 0: every read sees writes from other processes (the CLI indexing
    // while the plugin searches); on local disk that check is one small manifest read.
    db = await lancedb.connect(uri, { readConsistencyInterval: 0, storageOptions: options.storageOptions });
  } catch (err) {
    throw new Error(`cannot open vector store at ${uri}: ${oneLine(err)}`);
  }
  let table: LanceDb.Table;
  let names: string[];
  try {
    names = await db.tableNames();
  } catch (err) {
    db.close();
    throw new Error(`cannot read vector store at ${uri}: ${oneLine(err)}`);
  }
  if (names.includes(tableName)) {
    table = await db.openTable(tableName);
    const schema = await table.schema();
    const missing = chunkSchema(null).fields.map((f) => f.name).filter((name) => !schema.fields.some((f) => f.name === name));
    if (missing.length > 0) {
      table.close();
      db.close();
      throw new Error(`vector store ${uri} table ${tableName} lacks columns ${missing.join(", ")} (written by another tool or version): point vectorStore.path elsewhere or delete it and re-index`);
    }
    const stored = schemaDimension(schema);
    const wanted = options.dimension;
    // A keyword-only engine may read a table that has vectors (its model is merely unavailable);
    // any other difference means the vectors on disk are from another model.
    if (wanted !== null && stored !== wanted) {
      if (!options.recreateOnDimensionChange) {
        table.close();
        db.close();
        throw new StoreDimensionMismatchError(uri, stored, wanted);
      }
      table.close();
      await db.dropTable(tableName);
      table = await db.createEmptyTable(tableName, chunkSchema(wanted));
    }
  } else {
    // existOk: another process (the plugin and the CLI starting together) may create it first.
    table = await db.createEmptyTable(tableName, chunkSchema(options.dimension), { mode: "create", existOk: true });
  }
  const dimension = schemaDimension(await table.schema());
  const store = new LanceVectorStore(lancedb, db, table, uri, dimension, options.annMinRows ?? DEFAULT_ANN_MIN_ROWS);
  await store.init();
  return store;
}

export class LanceVectorStore implements VectorStore {
  private recordCache = new Map<string, ChunkRecord>();
  /** Table version the cached records were read at; another process's write empties the cache. */
  private cacheVersion = -1;
  private annBuild: Promise<void> | null = null;
  private annIndexName: string | null = null;
  private addedSinceAnnCheck = 0;
  private closed = false;
  /** Set on snapshot views: the version they are pinned to (they never write, nor close the connection). */
  private pinnedVersion: number | null = null;
  /** The table lives in a bucket (s3://, gs://, az://…), where every read is a request. */
  private readonly objectStorage: boolean;

  constructor(
    private readonly lancedb: typeof LanceDb,
    private readonly db: LanceDb.Connection,
    private readonly table: LanceDb.Table,
    readonly uri: string,
    /** Vector length of the table on disk; null when it has no vector column. */
    readonly dimension: number | null,
    private readonly annMinRows: number,
  ) {
    this.objectStorage = /^(s3a?|gs|gcs|az|abfss?|azure):\/\//i.test(uri);
  }

  async init(): Promise<void> {
    const indices = await this.table.listIndices();
    this.annIndexName = indices.find((i) => i.columns.includes("vector"))?.name ?? null;
  }

  async count(): Promise<number> {
    this.assertOpen();
    return this.table.countRows();
  }

  async add(rows: Row[]): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    if (rows.length === 0) return;
    for (const row of rows) validateRowVector(row, this.dimension);
    this.recordCache.clear();
    const data = rows.map((r) => this.toTableRow(r));
    await this.table.add(data);
    this.addedSinceAnnCheck += rows.length;
  }

  async deleteByFilePaths(filePaths: string[]): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    await this.deleteWhereIn("filePath", filePaths);
  }

  async deleteByIds(ids: string[]): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    await this.deleteWhereIn("id", ids);
  }

  async searchVector(vector: Float32Array, topK: number, filter?: SearchFilter): Promise<ScoredId[]> {
    this.assertOpen();
    validateQueryVector(vector, this.dimension, `vector store ${this.uri}`);
    if (topK <= 0) return [];
    // Only the implicit "no quirks" filter: quirks are few, so filter the nearest rows after the
    // search (with a margin) instead of evaluating the filter on every row first; with an HNSW
    // index that is about three times cheaper. Should quirks crowd out the margin, search again
    // filtering first. A user's filter may be selective: always filter first.
    if (isImplicitFilter(filter)) {
      const hits = await this.nearest(vector, topK, filter, true);
      if (hits.length >= topK) return hits;
    }
    return this.nearest(vector, topK, filter, false);
  }

  private async nearest(vector: Float32Array, topK: number, filter: SearchFilter | undefined, postfilter: boolean): Promise<ScoredId[]> {
    await this.syncCache();
    const limit = postfilter ? topK + POSTFILTER_MARGIN : topK;
    let query = this.table
      .vectorSearch(Array.from(vector))
      .column("vector")
      .distanceType("cosine")
      .where(filterToSql(filter))
      .select(VECTOR_RESULT_COLUMNS)
      .limit(limit);
    if (postfilter) query = query.postfilter();
    // With an HNSW index the graph is walked with a wide beam and, on local disk, re-ranked on
    // exact distances. Code embeddings crowd together: on the bench tree (34k chunks, the
    // natural-language questions) a beam of 4x the results found 79% of the exact top 10 and
    // 90% of the top 50; 12x (at least 256) finds 95% and 99% (`npm run bench -- --only=indexing
    // --embed` reports it), for about a millisecond more.
    // On object storage the re-ranking reads each candidate's vector with a request of its own
    // (~40 per search: 118 ms instead of 34 against a loopback S3 server, far more against a
    // real bucket), so the quantized distances are used as they are.
    if (this.annIndexName) {
      query = query.ef(Math.max(ANN_BEAM_MIN, limit * ANN_BEAM_PER_RESULT));
      if (!this.objectStorage) query = query.refineFactor(2);
    }
    const rows = (await query.toArray()) as Array<Record<string, unknown>>;
    const hits: ScoredId[] = [];
    for (const raw of rows) {
      if (hits.length >= topK) break;
      const distance = raw._distance as number | null;
      if (distance === null || distance === undefined || Number.isNaN(distance)) continue; // null vectors
      const record = toRecord(raw);
      this.remember(record);
      hits.push({ id: record.id, score: cosineDistanceToScore(distance) });
    }
    return hits;
  }

  async getByIds(ids: string[]): Promise<ChunkRecord[]> {
    this.assertOpen();
    await this.syncCache();
    const found = new Map<string, ChunkRecord>();
    const missing: string[] = [];
    for (const id of ids) {
      const cached = this.recordCache.get(id);
      if (cached) found.set(id, cached);
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += ID_BATCH) {
      const slice = missing.slice(i, i + ID_BATCH);
      const rows = (await this.table
        .query()
        .where(`\`id\` IN (${slice.map(sqlString).join(", ")})`)
        .select(RECORD_COLUMNS)
        .toArray()) as Array<Record<string, unknown>>;
      for (const raw of rows) {
        const record = toRecord(raw);
        this.remember(record); // random reads are the costly part of a search: keep what was read
        found.set(record.id, record);
      }
    }
    const out: ChunkRecord[] = [];
    for (const id of ids) {
      const record = found.get(id);
      if (record) out.push(record);
    }
    return out;
  }

  async listAll(): Promise<Array<Pick<ChunkRecord, "id" | "filePath" | "contentHash">>> {
    this.assertOpen();
    const rows = (await this.table.query().select(["id", "filePath", "contentHash"]).toArray()) as Array<Record<string, unknown>>;
    return rows.map((r) => ({ id: r.id as string, filePath: r.filePath as string, contentHash: r.contentHash as string }));
  }

  /**
   * The current table version: every later write can be undone by rollbackTo(). A checkpoint
   * is also when the ANN index is (re)built, if the table needs it: once per index pass, at its
   * commit, so the index is part of the committed version and a pass adding 50k rows builds it
   * once, not at every threshold crossed on the way. Searches keep running meanwhile.
   */
  async checkpoint(): Promise<number> {
    this.assertOpen();
    await this.maintainAnnIndex();
    return this.table.version();
  }

  /** Makes `checkpoint` the latest version again (a new version with its content; history is kept). */
  async rollbackTo(checkpoint: number): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    await this.waitForAnnBuild();
    this.recordCache.clear();
    if ((await this.table.version()) === checkpoint) return;
    try {
      await this.table.checkout(checkpoint);
      await this.table.restore();
    } catch (err) {
      await this.table.checkoutLatest().catch(() => undefined);
      throw new Error(`cannot roll vector store ${this.uri} back to version ${checkpoint}: ${oneLine(err)}`);
    }
    await this.init();
  }

  /** Deletes every row but keeps the table (and its history, so a rebuild can still be rolled back). */
  async clear(): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    await this.waitForAnnBuild();
    this.recordCache.clear();
    await this.table.delete("true");
  }

  /**
   * Housekeeping at the commit of a pass, under the index lock, before its checkpoint is taken
   * (it writes a new version). Each add() writes one small fragment, and searches and id
   * look-ups pay per fragment: 34k rows in 92 fragments answer an id look-up in 35 ms and a
   * vector search in 17 ms, compacted in 10 and 9. Once small fragments pile up they are
   * rewritten as one, before the ANN index is (re)built so a new index covers the compacted
   * files (0.4 s for 34k rows; with an index already built, remapping it takes ~5 s).
   * The same call drops old versions and their files: everything older than `keepVersion`
   * (the version an interrupted pass rolls back to) and than a minute (a search in another
   * process may still be reading it). Files of newer versions go at the next compaction.
   * A failure leaves the table as it was.
   */
  async compact(keepVersion: number, options: { graceMs?: number } = {}): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    await this.waitForAnnBuild();
    const stats = await this.table.stats();
    if (stats.fragmentStats.numSmallFragments < COMPACT_AT_SMALL_FRAGMENTS) return;
    const kept = (await this.table.listVersions()).find((v) => v.version === keepVersion);
    // A second's margin: version dates are rounded, and the cut-off must fall before the kept one.
    // Without the kept version's date nothing is safe to drop: the epoch keeps every version.
    const cutoff = kept ? Math.min(kept.timestamp.getTime() - 1000, Date.now() - (options.graceMs ?? VERSION_GRACE_MS)) : 0;
    this.recordCache.clear();
    // deleteUnverified: files younger than a week are otherwise kept in case a concurrent write
    // still needs them; the index lock held by the caller rules such a writer out.
    await this.table.optimize({ cleanupOlderThan: new Date(cutoff), deleteUnverified: cutoff > 0 });
    await this.init();
  }

  /**
   * Drops every version but the current one, with their files. Only for a table nothing may
   * read at an older version or roll back to: a workspace's first index, under the index lock.
   */
  async dropOldVersions(): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    await this.waitForAnnBuild();
    this.recordCache.clear();
    await this.table.optimize({ cleanupOlderThan: new Date(), deleteUnverified: true });
    await this.init();
  }

  /** Resolves once an ANN build in progress (if any) has finished; build errors are swallowed. */
  async waitForAnnBuild(): Promise<void> {
    if (this.annBuild) await this.annBuild;
  }

  get annIndexReady(): boolean {
    return this.annIndexName !== null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.waitForAnnBuild();
    this.closed = true;
    this.recordCache.clear();
    this.table.close();
    if (this.pinnedVersion === null) this.db.close();
  }

  /** A second handle on the table, checked out at `checkpoint`: later writes do not reach it. */
  async snapshot(checkpoint: number): Promise<LanceVectorStore> {
    this.assertOpen();
    const table = await this.db.openTable(this.table.name);
    try {
      await table.checkout(checkpoint);
    } catch (err) {
      table.close();
      throw new Error(`vector store ${this.uri} has no version ${checkpoint} any more: ${oneLine(err)}`);
    }
    const view = new LanceVectorStore(this.lancedb, this.db, table, this.uri, this.dimension, Infinity);
    view.pinnedVersion = checkpoint;
    await view.init();
    return view;
  }

  private assertWritable(): void {
    if (this.pinnedVersion !== null) throw new Error(`this view of vector store ${this.uri} is read-only (pinned to version ${this.pinnedVersion})`);
  }

  /**
   * Builds the ANN index when the table is large enough and has none, or rebuilds it when rows
   * added since the last build (searched flat until then) outgrow half of the indexed ones;
   * rebuilding from scratch at that point keeps the total build work linear in table size.
   * Failures leave flat search in place (correct, only slower); the next checkpoint retries.
   */
  private maintainAnnIndex(): Promise<void> {
    if (this.annBuild) return this.annBuild;
    if (this.dimension === null || !Number.isFinite(this.annMinRows)) return Promise.resolve();
    if (this.annIndexName && this.addedSinceAnnCheck < ANN_CHECK_EVERY) return Promise.resolve();
    this.annBuild = (async () => {
      try {
        if (this.annIndexName) {
          const stats = await this.table.indexStats(this.annIndexName);
          if (!stats || stats.numUnindexedRows < Math.max(this.annMinRows / 2, stats.numIndexedRows / 2)) return;
        } else if ((await this.table.countRows()) < this.annMinRows) {
          return;
        }
        this.addedSinceAnnCheck = 0;
        // HNSW with scalar quantisation: builds in seconds where IVF_PQ takes far longer on
        // small machines, and queries walk the graph instead of reading every row.
        const numPartitions = annPartitions(await this.table.countRows());
        await this.table.createIndex("vector", { config: this.lancedb.Index.hnswSq({ distanceType: "cosine", numPartitions }), replace: true });
        await this.init();
      } catch {
        // Flat search stays correct.
      } finally {
        this.annBuild = null;
      }
    })();
    return this.annBuild;
  }

  private async deleteWhereIn(column: "id" | "filePath", values: string[]): Promise<void> {
    if (values.length === 0) return;
    this.recordCache.clear();
    for (let i = 0; i < values.length; i += ID_BATCH) {
      const slice = values.slice(i, i + ID_BATCH);
      await this.table.delete(`\`${column}\` IN (${slice.map(sqlString).join(", ")})`);
    }
  }

  private toTableRow(r: Row): Record<string, unknown> {
    const row: Record<string, unknown> = {
      id: r.id,
      content: r.content,
      filePath: r.filePath,
      startLine: r.startLine,
      endLine: r.endLine,
      language: r.language,
      kind: r.kind,
      symbol: r.symbol ?? "",
      context: r.context ?? "",
      contentHash: r.contentHash,
      description: r.description ?? "",
    };
    if (this.dimension !== null) row.vector = r.vector ? Array.from(r.vector) : null;
    return row;
  }

  /** Ids are content-addressed, so a cached record is never wrong, but it may have been deleted. */
  private async syncCache(): Promise<void> {
    const version = await this.table.version();
    if (version !== this.cacheVersion) {
      this.recordCache.clear();
      this.cacheVersion = version;
    }
  }

  private remember(record: ChunkRecord): void {
    if (this.recordCache.size >= RECORD_CACHE_SIZE) {
      // Drop the oldest quarter: cheaper than a true LRU and good enough for "search then fetch".
      let n = RECORD_CACHE_SIZE / 4;
      for (const key of this.recordCache.keys()) {
        this.recordCache.delete(key);
        if (--n <= 0) break;
      }
    }
    this.recordCache.set(record.id, record);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`vector store ${this.uri} is closed`);
  }
}

function isImplicitFilter(filter?: SearchFilter): boolean {
  return !filter || (!filter.pathPrefixes?.length && !filter.languages?.length && !filter.kinds?.length);
}

function toRecord(raw: Record<string, unknown>): ChunkRecord {
  return {
    id: raw.id as string,
    content: raw.content as string,
    filePath: raw.filePath as string,
    startLine: Number(raw.startLine),
    endLine: Number(raw.endLine),
    language: raw.language as string,
    kind: raw.kind as string,
    symbol: (raw.symbol as string) ?? "",
    context: (raw.context as string) ?? "",
    contentHash: raw.contentHash as string,
    description: (raw.description as string) ?? "",
  };
}


