// The table's approximate-nearest-neighbour index (HNSW with scalar quantisation): when it is
// built or rebuilt, and how wide a search walks it. Node only.
import type * as LanceDb from "@lancedb/lancedb";

/**
 * From this many rows on, checkpoints build an ANN index. LanceDB's flat search costs about
 * 4 ms at 1k rows of 256-d, 8 ms at 4k and 16 ms at 6k, HNSW-SQ about 3 ms at all three
 * (2 cores); building it takes 0.16 s at 2k rows.
 */
export const DEFAULT_ANN_MIN_ROWS = 2_000;
/** Rows added between two looks at how much of the table the ANN index misses. */
export const ANN_CHECK_EVERY = 2_000;
/** The HNSW search beam: this many candidates per result wanted, and never fewer than the minimum. */
export const ANN_BEAM_PER_RESULT = 12;
export const ANN_BEAM_MIN = 256;
/**
 * IVF partitions of the HNSW index, each a graph of its own: one per 40k rows, at most 16 (a
 * search probes 20). On 172k rows of the bench tree's vectors, 4 partitions instead of one built
 * in 28 s instead of 34 and found 95% of the exact top 10 instead of 83% (every partition is
 * walked with the full beam), at the same search time and peak memory.
 */
function annPartitions(rows: number): number {
  return Math.min(16, Math.max(1, Math.round(rows / 40_000)));
}

/**
 * Builds the ANN index when the table holds at least `minRows` rows and has none, or rebuilds
 * it when rows added since the last build (searched flat until then) outgrow half of the
 * indexed ones; rebuilding from scratch at that point keeps the total build work linear in
 * table size. `beforeBuild` runs when a build starts. True when an index was (re)built; errors
 * propagate (the caller keeps flat search).
 */
export async function buildAnnIndexIfDue(
  lancedb: typeof LanceDb,
  table: LanceDb.Table,
  indexName: string | null,
  minRows: number,
  beforeBuild: () => void,
): Promise<boolean> {
  if (indexName) {
    const stats = await table.indexStats(indexName);
    if (!stats || stats.numUnindexedRows < Math.max(minRows / 2, stats.numIndexedRows / 2)) return false;
  } else if ((await table.countRows()) < minRows) {
    return false;
  }
  beforeBuild();
  // HNSW with scalar quantisation: builds in seconds where IVF_PQ takes far longer on
  // small machines, and queries walk the graph instead of reading every row.
  const numPartitions = annPartitions(await table.countRows());
  await table.createIndex("vector", { config: lancedb.Index.hnswSq({ distanceType: "cosine", numPartitions }), replace: true });
  return true;
}
