// LanceVectorStore: the VectorStore contract on an open LanceDB table — writes, vector search,
// id look-ups, versions (checkpoints, rollback, snapshots) and compaction. Opened by
// openLanceStore (lancedb.ts). Node only.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type * as LanceDb from "@lancedb/lancedb";
import type { Schema } from "apache-arrow";
import type { ChunkRecord, ScoredId, SearchFilter, StoredVector, StoreRow, VectorStore } from "../types.js";
import { isRemoteOrMemoryUri } from "../config/load.js";
import { oneLine } from "../error-line.js";
import { ANN_BEAM_MIN, ANN_BEAM_PER_RESULT, ANN_CHECK_EVERY, buildAnnIndexIfDue } from "./lance-ann.js";
import { descriptionColumn, descriptionOf, recordColumns, type RecordLayout, rowsToArrowTable, toRecord } from "./lance-table.js";
import { filterToSql, sqlString } from "./filter.js";
import { cosineDistanceToScore, validateQueryVector, validateRowVector } from "./vectors.js";

/** Small fragments (one per add()) tolerated before compact() rewrites them as one. */
const COMPACT_AT_SMALL_FRAGMENTS = 24;
/** Table versions younger than this survive compaction (a search in another process may still read them). */
const VERSION_GRACE_MS = 60_000;
/** How much older than a kept version a version must be to be dropped (dates are rounded; LanceDB dates its cut-off late). */
const VERSION_MARGIN_MS = 1000;
/**
 * Versions old enough to drop (past the grace) a local table may pile up before compact() drops
 * them even with few small fragments: a big pass (a first `--force`, a branch switch) leaves one
 * per write batch, each keeping its batch's files on disk beside their compacted copy (about the
 * table's size again). Versions still in their grace are not counted: compact() could not drop
 * them, and counting them made every pass for a minute after a big one (or during a run of
 * quick edits) rewrite the table in vain: 1.5 s a one-file pass instead of 45 ms, at 2,200 files.
 */
const CLEANUP_AT_VERSIONS = 64;
/** Extra rows fetched when only the implicit no-quirks filter applies (it runs after the search). */
const POSTFILTER_MARGIN = 16;
/** `id IN (...)` lists are sent in slices of this size to keep the SQL small. */
const ID_BATCH = 512;
/** Records read by recent searches and fetches (dropped on any table change), so repeated reads cost no scan. */
const RECORD_CACHE_SIZE = 4096;

export class LanceVectorStore implements VectorStore {
  private recordCache = new Map<string, ChunkRecord>();
  /** Table version the cached records were read at; another process's write empties the cache. */
  private cacheVersion = -1;
  private annBuild: Promise<void> | null = null;
  private annIndexName: string | null = null;
  /** Whether the ANN index was looked up (init): a view looks it up while its first reads go on. */
  private annIndexKnown: Promise<void> = Promise.resolve();
  private addedSinceAnnCheck = 0;
  private closed = false;
  /** The table's Arrow schema, read at the first add: rows are built in its columns. */
  private schema: Schema | null = null;
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
    /** How the table keeps a chunk's fields (lance-table.ts). */
    private readonly layout: RecordLayout,
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

  async add(rows: StoreRow[]): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    if (rows.length === 0) return;
    for (const row of rows) validateRowVector(row, this.dimension);
    this.recordCache.clear();
    this.schema ??= await this.table.schema();
    await this.table.add(rowsToArrowTable(rows, this.schema));
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
    await this.annIndexKnown;
    await this.syncCache();
    const hits = await this.scan(vector, topK, filter, postfilter, false);
    // A graph walk can come back short of rows that exist (a selective filter, near-duplicate
    // vectors): the exact scan then answers, at the flat search's cost, only for that search.
    if (this.annIndexName && hits.length < topK) return this.scan(vector, topK, filter, postfilter, true);
    return hits;
  }

  /** One vector search: through the ANN index when there is one, or every row when `exact`. */
  private async scan(vector: Float32Array, topK: number, filter: SearchFilter | undefined, postfilter: boolean, exact: boolean): Promise<ScoredId[]> {
    const limit = postfilter ? topK + POSTFILTER_MARGIN : topK;
    let query = this.table
      .vectorSearch(Array.from(vector))
      .column("vector")
      .distanceType("cosine")
      .where(filterToSql(filter))
      // `_distance` named: LanceDB warns when it is added implicitly
      .select([...recordColumns(this.layout), "_distance"])
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
    if (exact) query = query.bypassVectorIndex();
    else if (this.annIndexName) {
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

  async getByIds(ids: string[], rows?: number[]): Promise<ChunkRecord[]> {
    this.assertOpen();
    await this.syncCache();
    const found = new Map<string, ChunkRecord>();
    let missing: string[] = [];
    const hinted: number[] = [];
    const hintedIds: string[] = [];
    ids.forEach((id, i) => {
      const cached = this.recordCache.get(id);
      if (cached) found.set(id, cached);
      else {
        missing.push(id);
        const row = rows?.[i] ?? -1;
        if (row >= 0) {
          hinted.push(row);
          hintedIds.push(id);
        }
      }
    });
    if (hinted.length > 0 && this.rowHintsWork) {
      // Reading rows by place skips the scan of every id the filter below makes (~25 ms at 100k
      // chunks); what they hold is checked by id, and whatever they missed is read by id.
      const wanted = new Set(missing);
      for (const record of await this.recordsAt(hinted)) {
        if (!found.has(record.id) && wanted.has(record.id)) {
          this.remember(record);
          found.set(record.id, record);
        }
      }
      // Hints that mostly miss (a table changed since the keyword index was numbered) are not
      // worth a read each: stop taking them until the table changes.
      if (hintedIds.filter((id) => !found.has(id)).length > hinted.length / 2) this.rowHintsWork = false;
      missing = missing.filter((id) => !found.has(id));
    }
    for (let i = 0; i < missing.length; i += ID_BATCH) {
      const slice = missing.slice(i, i + ID_BATCH);
      const rows = (await this.table
        .query()
        .where(`\`id\` IN (${slice.map(sqlString).join(", ")})`)
        .select(recordColumns(this.layout))
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

  async vectorsByIds(ids: string[]): Promise<StoredVector[]> {
    this.assertOpen();
    if (this.dimension === null) return [];
    const out: StoredVector[] = [];
    for (let i = 0; i < ids.length; i += ID_BATCH) {
      const slice = ids.slice(i, i + ID_BATCH);
      const rows = (await this.table
        .query()
        .where(`\`id\` IN (${slice.map(sqlString).join(", ")})`)
        .select(["contentHash", descriptionColumn(this.layout), "vector"])
        .toArray()) as Array<Record<string, unknown>>;
      // Rows without a vector are left out here: a filter on the vector column would read
      // every row's vector, not just the matching ones'.
      for (const raw of rows) {
        const vector = toFloat32(raw.vector);
        if (vector) out.push({ contentHash: raw.contentHash as string, description: descriptionOf(raw), vector });
      }
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
    await this.readyToRewrite();
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
    await this.readyToRewrite();
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
   * process may still be reading it). Versions newer than the kept one (a pass's write batches,
   * each holding its batch's files) go at a later call, once a later version is kept: also
   * when few small fragments remain but versions have piled up (a big pass leaves one per
   * batch, their files about the table's size again).
   * A failure leaves the table as it was.
   */
  async compact(keepVersion: number, options: { graceMs?: number } = {}): Promise<void> {
    await this.readyToRewrite();
    const graceMs = options.graceMs ?? VERSION_GRACE_MS;
    if (!(await this.rewriteDue(0, graceMs))) return;
    this.recordCache.clear();
    // Compaction alone (a cut-off at the epoch prunes nothing): LanceDB dates the cut-off when
    // it starts pruning, after compacting, so a long compaction in the same call would move the
    // cut-off past the kept version. (A table under a million rows is rewritten whole.)
    await this.table.optimize({ cleanupOlderThan: new Date(0) });
    // The compaction's version holds on to the files it replaced until it is dropped itself,
    // by date, once a later pass keeps the version this call ends on. So this call ends on a
    // version of its own (an empty delete) dated a margin after the compaction; otherwise the
    // replaced files would stay until some later compaction.
    await new Promise((resolve) => setTimeout(resolve, VERSION_MARGIN_MS + 100));
    await this.table.delete("false");
    const kept = (await this.table.listVersions()).find((v) => v.version === keepVersion);
    // The margin: listed dates are rounded, and the cut-off must fall before the kept one.
    // Without the kept version's date nothing is safe to drop: the epoch keeps every version.
    const cutoff = kept ? Math.min(kept.timestamp.getTime() - VERSION_MARGIN_MS, Date.now() - graceMs) : 0;
    // deleteUnverified: files younger than a week are otherwise kept in case a concurrent write
    // still needs them; the index lock held by the caller rules such a writer out.
    await this.table.optimize({ cleanupOlderThan: new Date(cutoff), deleteUnverified: cutoff > 0 });
    await this.init();
  }

  /**
   * Whether compact() would rewrite the table once `addedFragments` more writes land: small
   * fragments piled up, or versions it may drop. Its compaction rewrites a table under a million
   * rows whole, which a process keeps the memory of (a 100k-file index under Bun: +300 MB).
   */
  async rewriteDue(addedFragments: number, graceMs = VERSION_GRACE_MS): Promise<boolean> {
    const stats = await this.table.stats();
    if (stats.fragmentStats.numSmallFragments + addedFragments >= COMPACT_AT_SMALL_FRAGMENTS) return true;
    return this.localVersionsOlderThan(Date.now() - graceMs) > CLEANUP_AT_VERSIONS;
  }

  /**
   * How many versions of a local table were written before `cutoffMs`, by their manifests' file
   * dates (0 for a table in a bucket: not counted). A few stats per version, no manifest read.
   */
  private localVersionsOlderThan(cutoffMs: number): number {
    if (isRemoteOrMemoryUri(this.uri)) return 0;
    const dir = join(this.uri, `${this.table.name}.lance`, "_versions");
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".manifest"));
    } catch {
      return 0;
    }
    let older = 0;
    for (const name of names) {
      try {
        if (statSync(join(dir, name)).mtimeMs < cutoffMs) older++;
      } catch {
        // dropped meanwhile by another handle's cleanup
      }
    }
    return older;
  }

  /**
   * Drops every version but the current one, with their files. Only for a table nothing may
   * read at an older version or roll back to: a workspace's first index, under the index lock.
   */
  async dropOldVersions(): Promise<void> {
    await this.readyToRewrite();
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
    const view = new LanceVectorStore(this.lancedb, this.db, table, this.uri, this.dimension, Infinity, this.layout);
    view.pinnedVersion = checkpoint;
    // only its own vector searches need the index's name (a search's reads by id or row do not);
    // a failed look-up leaves flat search, which is exact
    view.annIndexKnown = view.init().catch(() => undefined);
    return view;
  }

  /** Before a write that rewrites versions or files: open, writable, and no ANN build under way. */
  private async readyToRewrite(): Promise<void> {
    this.assertOpen();
    this.assertWritable();
    await this.waitForAnnBuild();
  }

  private assertWritable(): void {
    if (this.pinnedVersion !== null) throw new Error(`this view of vector store ${this.uri} is read-only (pinned to version ${this.pinnedVersion})`);
  }

  /**
   * Builds or rebuilds the ANN index when due (`buildAnnIndexIfDue`), one build at a time.
   * Failures leave flat search in place (correct, only slower); the next checkpoint retries.
   */
  private maintainAnnIndex(): Promise<void> {
    if (this.annBuild) return this.annBuild;
    if (this.dimension !== null && !Number.isFinite(this.annMinRows) && this.annIndexName) {
      // A store searched some other way (the keyword index's vector codes) needs none: an index
      // an older version built is dropped instead of being kept up to date.
      const name = this.annIndexName;
      this.annBuild = this.table
        .dropIndex(name)
        .then(() => {
          this.annIndexName = null;
        })
        .catch(() => undefined)
        .finally(() => {
          this.annBuild = null;
        });
      return this.annBuild;
    }
    if (this.dimension === null || !Number.isFinite(this.annMinRows)) return Promise.resolve();
    if (this.annIndexName && this.addedSinceAnnCheck < ANN_CHECK_EVERY) return Promise.resolve();
    this.annBuild = (async () => {
      try {
        const built = await buildAnnIndexIfDue(this.lancedb, this.table, this.annIndexName, this.annMinRows, () => {
          this.addedSinceAnnCheck = 0;
        });
        if (built) await this.init();
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

  /** Ids are content-addressed, so a cached record is never wrong, but it may have been deleted. */
  private async syncCache(): Promise<void> {
    // a view pinned to a version never sees another: no need to ask (a round trip to LanceDB)
    const version = this.pinnedVersion ?? (await this.table.version());
    if (version !== this.cacheVersion) {
      this.recordCache.clear();
      this.cacheVersion = version;
      this.rowHintsWork = true;
    }
  }

  /** Whether row hints found most of their records at this table version. */
  private rowHintsWork = true;

  /** The records at these row offsets of the table (none for offsets past its end). */
  private async recordsAt(offsets: number[]): Promise<ChunkRecord[]> {
    try {
      const raw = (await this.table.takeOffsets(offsets).select(recordColumns(this.layout)).toArray()) as Array<Record<string, unknown>>;
      return raw.map(toRecord);
    } catch {
      return []; // an offset past the end: the reads by id answer
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

/** A vector column value (an Arrow list, or an array) as its own Float32Array; null when absent. */
function toFloat32(value: unknown): Float32Array | null {
  if (value === null || value === undefined) return null;
  const v = value as { toArray?: () => ArrayLike<number> } & ArrayLike<number>;
  // A copy: the result must not keep the whole Arrow batch it came from alive.
  return Float32Array.from(typeof v.toArray === "function" ? v.toArray() : v);
}

function isImplicitFilter(filter?: SearchFilter): boolean {
  return !filter || (!filter.pathPrefixes?.length && !filter.languages?.length && !filter.kinds?.length);
}
