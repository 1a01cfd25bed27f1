// Vector arithmetic and checks shared by the stores. Portable: no Node built-ins.

/**
 * Cosine similarity mapped to a score in [0,1]. Negative similarity (opposite directions)
 * clamps to 0 rather than being rescaled, so that a score keeps reading as "cosine" and
 * thresholds like minScore 0.5 mean the same in every store.
 */
export function cosineScore(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  return clampScore(dot / Math.sqrt(na * nb));
}

/** LanceDB's cosine distance is 1 − cosine similarity. */
export function cosineDistanceToScore(distance: number): number {
  return clampScore(1 - distance);
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
}
