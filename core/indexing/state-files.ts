// Files other processes read to show what indexing is doing right now: the progress of a
// running pass (plugin tools, TUI sidebar: "indexing 340/1,200 files…") and the watcher's state.
import { join } from "node:path";
import { readJsonState, removeQuietly, writeJsonAtomic } from "./atomic-file.js";
import { lockOwner } from "./lock.js";

export const PROGRESS_FILE = "index-progress.json";
export const WATCHER_STATUS_FILE = "watcher-status.json";

export interface ProgressFile {
  pid: number;
  startedAt: string;
  updatedAt: string;
  phase: string;
  filesDone: number;
  filesTotal: number;
  chunksDone: number;
}

export interface WatcherStatusFile {
  pid: number;
  state: "watching" | "indexing" | "error" | "off";
  backend: string;
  updatedAt: string;
  message?: string;
  lastPass?: { at: string; filesIndexed: number; filesDeleted: number; durationMs: number };
}

export function writeProgress(stateDir: string, p: ProgressFile): void {
  try {
    writeJsonAtomic(join(stateDir, PROGRESS_FILE), p);
  } catch {
    // progress is advisory
  }
}

export function clearProgress(stateDir: string): void {
  removeQuietly(join(stateDir, PROGRESS_FILE));
}

/** The running pass's progress, or null when no live process is indexing this store. */
export function readProgress(stateDir: string): ProgressFile | null {
  const p = readJsonState<ProgressFile>(join(stateDir, PROGRESS_FILE));
  if (!p || p === "corrupt") return null;
  const owner = lockOwner(stateDir);
  if (!owner || owner.pid !== p.pid) return null; // left behind by a killed pass
  return p;
}

/**
 * The last status this process's watchers wrote, by state folder: on a full or read-only disk
 * the file keeps an older one, and the status a host shows must still be this error.
 */
const writtenHere = new Map<string, WatcherStatusFile>();

export function writeWatcherStatus(stateDir: string, s: WatcherStatusFile): void {
  writtenHere.set(stateDir, s);
  try {
    writeJsonAtomic(join(stateDir, WATCHER_STATUS_FILE), s);
  } catch {
    // advisory
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The watcher's state; "off" when no watcher process is alive. */
export function readWatcherStatus(stateDir: string): WatcherStatusFile | null {
  const read = readJsonState<WatcherStatusFile>(join(stateDir, WATCHER_STATUS_FILE));
  const file = read && read !== "corrupt" ? read : null;
  const mine = writtenHere.get(stateDir);
  const s = mine && (!file || file.updatedAt <= mine.updatedAt) ? mine : file;
  if (!s) return null;
  if (s.state !== "off" && !alive(s.pid)) return { ...s, state: "off", message: "the watching process has exited" };
  return s;
}
