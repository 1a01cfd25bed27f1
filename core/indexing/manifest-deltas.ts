// Deltas of the manifest's file table: a small pass's edited entries, written beside the table
// instead of the whole table again (at 100k files 7.8 MB and ~70-120 ms to encode, for a change
// of one entry), and replayed over it by every reader, in order.
import { setEntry, type ManifestFileEntry } from "./manifest-files.js";

/** A delta beside the file table: its file name in the state folder, and its length. */
export interface FilesDelta {
  file: string;
  bytes: number;
}

/** The file table a header names: the table's file and length, and the deltas replayed over it, in order. */
export interface FileTableRef {
  filesFile: string;
  filesBytes: number;
  deltas: FilesDelta[];
}

const FILES_DELTA_PATTERN = /^manifest-files-\d+-[0-9a-f]+\.delta\.json$/;
/**
 * A pass that edits at most this many entries writes them as a delta, while the deltas stay
 * within FILES_DELTAS_MAX_FILES files and a quarter of the table's bytes (at most
 * FILES_DELTAS_MAX_BYTES): every reader replays them.
 */
const FILES_DELTA_MAX_ENTRIES = 2000;
const FILES_DELTAS_MAX_FILES = 16;
const FILES_DELTAS_MAX_BYTES = 1 << 20;

/** One delta file: entries gone, then entries new or replaced, by path. */
interface FilesDeltaBody {
  remove: string[];
  set: Array<[string, ManifestFileEntry]>;
}

/** Whether a header's list of deltas is well formed (names a reader may open in the state folder). */
export function isDeltaList(x: unknown): x is FilesDelta[] {
  return Array.isArray(x) && x.length > 0 && x.every((d) => d && typeof d.file === "string" && FILES_DELTA_PATTERN.test(d.file) && typeof d.bytes === "number");
}

/**
 * The delta of `files` at `paths` (each path's entry, or its removal) over `base`, or null when
 * it would take the deltas past their limits (then the whole table is written).
 */
export function encodeDelta(files: Record<string, ManifestFileEntry>, base: FileTableRef, paths: ReadonlySet<string>): Buffer | null {
  if (paths.size > FILES_DELTA_MAX_ENTRIES || base.deltas.length >= FILES_DELTAS_MAX_FILES) return null;
  const delta: FilesDeltaBody = { remove: [], set: [] };
  for (const path of paths) {
    if (Object.hasOwn(files, path)) delta.set.push([path, files[path]]);
    else delta.remove.push(path);
  }
  const bytes = Buffer.from(JSON.stringify(delta), "utf8");
  let total = bytes.length;
  for (const d of base.deltas) total += d.bytes;
  return total > Math.min(FILES_DELTAS_MAX_BYTES, base.filesBytes / 4) ? null : bytes;
}

/** Replays one delta's removals, then its entries, over `files`; a reason when it is not a well-formed delta. */
export function applyDelta(files: Record<string, ManifestFileEntry>, bytes: Buffer): string | null {
  let delta: FilesDeltaBody;
  try {
    delta = JSON.parse(bytes.toString("utf8")) as FilesDeltaBody;
  } catch {
    return "not JSON";
  }
  if (!delta || !Array.isArray(delta.remove) || !Array.isArray(delta.set)) return "an unknown shape";
  for (const path of delta.remove) if (typeof path === "string") delete files[path];
  for (const item of delta.set) {
    const [path, e] = Array.isArray(item) ? item : [];
    if (typeof path !== "string" || !e || typeof e.size !== "number" || typeof e.mtimeMs !== "number" || typeof e.hash !== "string" || !Array.isArray(e.chunkIds)) return "a malformed entry";
    setEntry(files, path, e);
  }
  return null;
}
