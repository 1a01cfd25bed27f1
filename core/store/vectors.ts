// Vector arithmetic and checks shared by the stores and the ranking. Portable: no Node built-ins.

// Scores are cosine similarity with negatives clamped to 0 (not rescaled), so that a score keeps
// reading as "cosine" and thresholds like minScore 0.5 mean the same in every store.

/** LanceDB's cosine distance is 1 − cosine similarity. */
export function cosineDistanceToScore(distance: number): number {
  return clampScore(1 - distance);
}

/** Dot product: the cosine of two unit vectors (what every provider returns). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

export function clampScore(x: number): number {
  if (!(x > 0)) return 0; // also maps NaN to 0
  return x > 1 ? 1 : x;
}

/** Rejects a row whose vector cannot live in a store of this dimension, naming the row. */
export function validateRowVector(row: { id: string; vector: Float32Array | null }, dimension: number | null): void {
  if (row.vector === null || row.vector === undefined) return;
  if (dimension === null) {
    throw new Error(`row ${row.id} has a vector but the store is keyword-only: open it with the model's dimension`);
  }
  if (row.vector.length !== dimension) {
    throw new Error(`row ${row.id} has a ${row.vector.length}-dimensional vector but the store holds ${dimension}: re-index with --force after a model change`);
  }
  if (!allFinite(row.vector)) throw new Error(`row ${row.id} has a vector with NaN or infinite values: the embedding model produced garbage for it`);
}

/** Rejects a query vector that no store can search with. */
export function validateQueryVector(vector: Float32Array, dimension: number | null, where: string): void {
  if (dimension === null) throw new Error(`${where} is keyword-only (no vector column): vector search is unavailable`);
  if (vector.length !== dimension) {
    throw new Error(`query vector has ${vector.length} dimensions but the store holds ${dimension}: re-index with the current model`);
  }
  if (!allFinite(vector)) throw new Error("query vector has NaN or infinite values: the embedding model produced garbage for this query");
}

function allFinite(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
  return true;
}
