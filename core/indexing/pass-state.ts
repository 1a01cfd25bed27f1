// What the steps of one pass share: where it started (pass-start.ts), what it has done so far
// (summary, progress, keyword changes, the write queue), and the files it left out.
import type { RagConfig } from "../config/defaults.js";
import type { IndexOptions, IndexSummary } from "../engine-types.js";
import { countEntry, setEntry, type ManifestFileEntry } from "./manifest.js";
import { notePathChange } from "./manifest-folders.js";
import { IndexCancelledError, type PassEnv } from "./pass-env.js";
import type { PassKeywords } from "./pass-keywords.js";
import type { PassProgress } from "./pass-progress.js";
import type { PassStart } from "./pass-start.js";
import type { WriteQueue } from "./write-queue.js";

export interface PassState extends PassStart {
  env: PassEnv;
  config: RagConfig;
  options: IndexOptions;
  summary: IndexSummary;
  progress: PassProgress;
  keywords: PassKeywords;
  writes: WriteQueue;
  /** Files this pass left out, and why. */
  skippedFiles: Map<string, string>;
  /** The paths a partial pass looked at (null: the whole workspace). */
  examined: string[] | null;
  /** Manifest entries changed without adding or removing chunks (a touched file's mtime). */
  touchedEntries: number;
  /** Paths whose manifest entries this pass set, edited or removed: what a delta of the file table holds. */
  editedPaths: Set<string>;
}

/**
 * Sets a file's manifest entry, or removes it (null), noting the path for the file table's
 * delta and keeping the table's counts current.
 */
export function editEntry(pass: Pick<PassState, "manifest" | "editedPaths" | "counts">, path: string, entry: ManifestFileEntry | null): void {
  const files = pass.manifest.files;
  pass.editedPaths.add(path);
  const had = Object.hasOwn(files, path);
  if (pass.counts && had) countEntry(pass.counts, files[path], -1);
  if (entry) {
    setEntry(files, path, entry);
    if (pass.counts) countEntry(pass.counts, entry, 1);
  } else delete files[path];
  if (had !== (entry !== null)) notePathChange(files, path, entry !== null);
}

export function checkAbort(pass: Pick<PassState, "options">): void {
  if (pass.options.signal?.aborted) throw new IndexCancelledError();
}

export function emptySummary(): IndexSummary {
  return {
    filesScanned: 0,
    filesIndexed: 0,
    filesUnchanged: 0,
    filesDeleted: 0,
    filesSkipped: 0,
    chunksAdded: 0,
    chunksRemoved: 0,
    chunksEmbedded: 0,
    chunksFromCache: 0,
    chunksReused: 0,
    bytesRead: 0,
    durationMs: 0,
    rebuildReason: null,
    errors: [],
    warnings: [],
  };
}
