// The files the last pass left out, each with why (binary, too large, unreadable, a secret…),
// so `status --json` and `index --debug` can name them. Written after each pass; a watch pass,
// which looks at a few paths, updates the entries for those paths and keeps the rest.
import { join } from "node:path";
import { readJsonState, writeJsonAtomic } from "./atomic-file.js";

export const SKIPPED_FILE = "skipped-files.json";
/** Entries kept in the file; the rest are only counted. */
export const SKIPPED_LIST_MAX = 1000;

export interface SkippedEntry {
  path: string;
  reason: string;
}

export interface SkippedList {
  updatedAt: string;
  /** Every file skipped, listed or not. */
  total: number;
  /** Up to SKIPPED_LIST_MAX entries, by path. */
  files: SkippedEntry[];
  /** Skipped files beyond the list (total - files.length). */
  omitted: number;
}

export function readSkippedList(stateDir: string): SkippedList | null {
  const s = readJsonState<SkippedList>(join(stateDir, SKIPPED_FILE));
  if (!s || s === "corrupt" || !Array.isArray(s.files)) return null;
  return s;
}

/**
 * Writes this pass's skipped files. `examined` (a partial pass): the paths the pass looked at;
 * earlier entries for other paths are kept (folders: a path and everything under it).
 */
export function writeSkippedList(stateDir: string, found: Map<string, string>, examined: string[] | null): SkippedList {
  const merged = new Map(found);
  let omittedBefore = 0;
  if (examined) {
    const prev = readSkippedList(stateDir);
    // A path, or a folder above it, that the pass looked at (a set: a pass over many folders'
    // entries examines every file in them, and the list holds up to SKIPPED_LIST_MAX entries).
    const looked = new Set(examined);
    const covers = (p: string) => {
      for (let at = p.length; at > 0; at = p.lastIndexOf("/", at - 1)) if (looked.has(p.slice(0, at))) return true;
      return false;
    };
    for (const e of prev?.files ?? []) if (!merged.has(e.path) && !covers(e.path)) merged.set(e.path, e.reason);
    omittedBefore = prev?.omitted ?? 0;
  }
  const all = [...merged].map(([path, reason]) => ({ path, reason })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files = all.slice(0, SKIPPED_LIST_MAX);
  // Past the cap a partial pass cannot know which unlisted files it covered: keep their count.
  const total = all.length + omittedBefore;
  const list: SkippedList = { updatedAt: new Date().toISOString(), total, files, omitted: total - files.length };
  try {
    writeJsonAtomic(join(stateDir, SKIPPED_FILE), list);
  } catch {
    // advisory, like the progress file
  }
  return list;
}
