// The VectorStore contract held entirely in memory: brute-force cosine search over every row.
// Used by the browser build and by fast tests; portable (no Node built-ins).
import type { ChunkRecord, ScoredId, SearchFilter, StoredVector, StoreRow as Row, VectorStore } from "../types.js";
import { compileFilter } from "./filter.js";
import { clampScore, dot, validateQueryVector, validateRowVector } from "./vectors.js";

/** A stored row keeps its vector scaled to unit length, so a search is one dot product per row. */
type StoredRow = Row & { unit: Float32Array | null };

/** Checkpoints kept for rollback; an index pass needs only the latest one. */
const MAX_CHECKPOINTS = 8;

export class MemoryVectorStore implements VectorStore {
  private rows = new Map<string, StoredRow>();
  private version = 0;
  // Rows are never mutated in place, so a snapshot is a shallow copy of the map.
  private snapshots = new Map<number, Map<string, StoredRow>>();
  private closed = false;

  /** @param dimension vector length, or null for a keyword-only store that holds no vectors. */
  constructor(readonly dimension: number | null) {
    if (dimension !== null && (!Number.isInteger(dimension) || dimension <= 0)) {
      throw new Error(`vector store dimension must be a positive integer or null (keyword-only), got ${dimension}`);
    }
  }

  async count(): Promise<number> {
    this.assertOpen();
    return this.rows.size;
  }

  async add(rows: Row[]): Promise<void> {
    this.assertOpen();
    for (const row of rows) validateRowVector(row, this.dimension);
    this.version++;
    for (const row of rows) this.rows.set(row.id, freeze(row));
  }

  async deleteByFilePaths(filePaths: string[]): Promise<void> {
    this.assertOpen();
    if (filePaths.length === 0) return;
    const paths = new Set(filePaths);
    this.version++;
    for (const [id, row] of this.rows) if (paths.has(row.filePath)) this.rows.delete(id);
  }

  async deleteByIds(ids: string[]): Promise<void> {
    this.assertOpen();
    if (ids.length === 0) return;
    this.version++;
    for (const id of ids) this.rows.delete(id);
  }

  async searchVector(vector: Float32Array, topK: number, filter?: SearchFilter): Promise<ScoredId[]> {
    this.assertOpen();
    validateQueryVector(vector, this.dimension, "this in-memory store");
    if (topK <= 0) return [];
    const accept = compileFilter(filter);
    const query = toUnit(vector);
    const hits: ScoredId[] = [];
    if (!query) return hits;
    for (const row of this.rows.values()) {
      const unit = row.unit;
      if (!unit || !accept(row)) continue;
      hits.push({ id: row.id, score: clampScore(dot(query, unit)) });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, topK);
  }

  async getByIds(ids: string[]): Promise<ChunkRecord[]> {
    this.assertOpen();
    const out: ChunkRecord[] = [];
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row) out.push(toRecord(row));
    }
    return out;
  }

  /** Vectors as stored: scaled to unit length, which a provider's (L2-normalised) already are. */
  async vectorsByIds(ids: string[]): Promise<StoredVector[]> {
    this.assertOpen();
    const out: StoredVector[] = [];
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row?.unit) out.push({ contentHash: row.contentHash, description: row.description ?? "", vector: row.unit.slice() });
    }
    return out;
  }

  async listAll(): Promise<Array<Pick<ChunkRecord, "id" | "filePath" | "contentHash">>> {
    this.assertOpen();
    return [...this.rows.values()].map((r) => ({ id: r.id, filePath: r.filePath, contentHash: r.contentHash }));
  }

  async checkpoint(): Promise<number> {
    this.assertOpen();
    this.snapshots.set(this.version, new Map(this.rows));
    while (this.snapshots.size > MAX_CHECKPOINTS) this.snapshots.delete(this.snapshots.keys().next().value as number);
    return this.version;
  }

  /** A read-only copy of the rows at `checkpoint` (one of the last few kept). */
  async snapshot(checkpoint: number): Promise<VectorStore> {
    this.assertOpen();
    const rows = checkpoint === this.version && !this.snapshots.has(checkpoint) ? this.rows : this.snapshots.get(checkpoint);
    if (!rows) throw new Error(`vector store has no checkpoint ${checkpoint} any more (only the last ${MAX_CHECKPOINTS} are kept)`);
    const view = new MemoryVectorStore(this.dimension);
    view.rows = new Map(rows);
    view.version = checkpoint;
    return view;
  }

  async rollbackTo(checkpoint: number): Promise<void> {
    this.assertOpen();
    const snapshot = this.snapshots.get(checkpoint);
    if (!snapshot) throw new Error(`vector store has no checkpoint ${checkpoint} to roll back to (only the last ${MAX_CHECKPOINTS} are kept)`);
    this.rows = new Map(snapshot);
    this.version++;
  }

  async clear(): Promise<void> {
    this.assertOpen();
    this.version++;
    this.rows = new Map();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.rows = new Map();
    this.snapshots.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("vector store is closed");
  }
}

function freeze(row: Row): StoredRow {
  // Copied so later changes by the caller cannot reach into the store or its snapshots.
  const { vector, ...record } = row;
  return { ...record, vector: null, unit: vector ? toUnit(vector) : null };
}

function toRecord(row: StoredRow): ChunkRecord {
  const { vector: _vector, unit: _unit, ...record } = row;
  return record;
}

/** A unit-length copy; null for the zero vector (it has no direction, so no similarity). */
function toUnit(v: Float32Array): Float32Array | null {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  if (n === 0 || !Number.isFinite(n)) return null;
  const inv = 1 / Math.sqrt(n);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}
