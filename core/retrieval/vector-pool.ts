// The vectors' candidates. In a whole checkout, tests, examples and documents share the code's
// words and meaning, and fill much of the nearest chunks: the ranking demotes them afterwards,
// but the code they pushed out of the pool never gets ranked at all. So past the first
// `pool` hits, only source code joins, until the pool holds `pool` chunks of it or
// `pool × VECTOR_SCAN_DEPTH` hits were looked at. Where the nearest are all code (a source
// folder), the pool is the nearest `pool`, as before. Portable: no Node built-ins.
import { classifyPath, type PathHints } from "../path-class.js";
import { isDocumentPath } from "../chunking/document-paths.js";
import type { ScoredId } from "../types.js";

/** How many times the pool's size the vector scan returns, for the source code past the first hits. */
export const VECTOR_SCAN_DEPTH = 3;

/** Source code by its path (and `hints`): not a test, example, generated or vendored file, nor a document. */
function isSourcePath(filePath: string, hints: PathHints): boolean {
  return !isDocumentPath(filePath) && classifyPath(filePath, hints) === "source";
}

/**
 * The first `pool` hits, then the source hits after them until `pool` hits in all are source.
 * Hits that do not name their file (a store's own search) are taken as they come.
 */
export function sourceFirstPool(hits: readonly ScoredId[], pool: number, hints: PathHints = {}): ScoredId[] {
  const out: ScoredId[] = [];
  let sources = 0;
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i];
    if (i >= pool && (sources >= pool || hit.filePath === undefined)) break;
    const isSource = hit.filePath !== undefined && isSourcePath(hit.filePath, hints);
    if (i < pool || isSource) out.push(hit);
    if (isSource) sources++;
  }
  return out;
}
