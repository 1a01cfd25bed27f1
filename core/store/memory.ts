// The VectorStore contract held entirely in memory: brute-force cosine search over every row.
// Used by the browser build and by fast tests; portable (no Node built-ins).
import type { ChunkRecord, ScoredId, SearchFilter, VectorStore } from "../types.js";
import { compileFilter } from "./filter.js";
import { cosineScore, validateRowVector } from "./vectors.js";

type Row = ChunkRecord & { vector: Float32Array | null };

/** Checkpoints kept for rollback; an index pass needs only the latest one. */
const MAX_CHECKPOINTS = 8;

export class MemoryVectorStore implements VectorStore {
  private rows = new Map<string, Row>();
  private version = 0;
  // Rows are never mutated in place, so a snapshot is a shallow copy of the map.
  private snapshots = new Map<number, Map<string, Row>>();
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
    if (this.dimension === null) {
      throw new Error("this store is keyword-only (opened without a vector dimension): vector search is unavailable");
    }
    if (vector.length !== this.dimension) {
      throw new Error(`query vector has ${vector.length} dimensions but the store holds ${this.dimension}: re-index with the current model`);
    }
    if (topK <= 0) return [];
    const accept = compileFilter(filter);
    const hits: ScoredId[] = [];
    for (const row of this.rows.values()) {
      if (!row.vector || !accept(row)) continue;
      hits.push({ id: row.id, score: cosineScore(vector, row.vector) });
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

function freeze(row: Row): Row {
  // Copy so later changes by the caller cannot reach into the store or its snapshots.
  return { ...row, vector: row.vector ? Float32Array.from(row.vector) : null };
}

function toRecord(row: Row): ChunkRecord {
  const { vector: _vector, ...record } = row;
  return record;
}
