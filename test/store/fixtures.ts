// Small deterministic rows for store tests: vectors point along chosen axes so that the
// expected nearest neighbours are obvious from the data itself.
import type { ChunkRecord } from "../../core/types.js";

export type Row = ChunkRecord & { vector: Float32Array | null };

export const DIM = 8;

export function axis(i: number, j?: number, w = 0.5): Float32Array {
  const v = new Float32Array(DIM);
  v[i] = 1;
  if (j !== undefined) v[j] = w;
  return v;
}

export function row(id: string, filePath: string, vector: Float32Array | null, extra: Partial<ChunkRecord> = {}): Row {
  return {
    id,
    filePath,
    startLine: 1,
    endLine: 10,
    language: "typescript",
    kind: "function",
    symbol: id,
    context: `function ${id}()`,
    content: `function ${id}() {}`,
    contentHash: `h-${id}`,
    description: "",
    vector,
    ...extra,
  };
}

/** A mixed corpus: several files, languages and kinds, awkward characters in paths. */
export function sampleRows(): Row[] {
  return [
    row("a1", "src/a.ts", axis(0)),
    row("a2", "src/a.ts", axis(0, 1), { startLine: 11, endLine: 20 }),
    row("b1", "src/b_%.ts", axis(1, 0, 0.2)),
    row("q1", "src/o'brien.ts", axis(0, 2, 0.1)),
    row("p1", "lib/util.py", axis(0, 3, 0.3), { language: "python" }),
    row("m1", "docs/guide.md", axis(2), { language: "markdown", kind: "section" }),
    row("k1", "src/a.ts", axis(0, 4, 0.2), { kind: "quirk" }),
    row("n1", "src/none.ts", null),
  ];
}

/**
 * Counts the calls a LanceDB store makes to one method of its table (`query`: reads by id
 * filter; `takeOffsets`: reads by row), passing them on; returns the count so far.
 */
export function countTableCalls(store: object, method: "query" | "takeOffsets"): () => number {
  const table = (store as { table: Record<string, (...args: unknown[]) => unknown> }).table;
  const original = table[method].bind(table);
  let calls = 0;
  table[method] = (...args: unknown[]) => (calls++, original(...args));
  return () => calls;
}
