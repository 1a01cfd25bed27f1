// Reads what the sidebar shows from the state folder the indexer writes (manifest.json,
// watcher-status.json, index-progress.json) through the core's own readers, which know the
// files' shapes and tell a live pass or watcher from one left behind by a killed process.
// The TUI runs on another thread than the server plugin that indexes, so files are the
// channel. A missing or unreadable file becomes a note in the sidebar, never an exception.
import { existsSync, watch, type FSWatcher } from "node:fs";
import type { RagConfig } from "../core/config/defaults.js";
import { readManifest, readManifestHeader } from "../core/indexing/manifest.js";
import { readProgress, readWatcherStatus } from "../core/indexing/state-files.js";

export interface SidebarStatus {
  chunks: number | null;
  files: number | null;
  provider: string;
  model: string;
  lastIndexedAt: string | null;
  watch: { state: string; backend?: string; message?: string };
  /** Set while an indexing pass runs. */
  progress: { filesDone: number; filesTotal: number; phase?: string } | null;
  /** One line when something needs the user's attention (not indexed, unreadable manifest). */
  note: string | null;
}

export function readSidebarStatus(stateDir: string, config: RagConfig): SidebarStatus {
  const status: SidebarStatus = {
    chunks: null,
    files: null,
    provider: config.embedding.provider,
    model: config.embedding.model,
    lastIndexedAt: null,
    watch: { state: config.autoIndex.enabled ? "not running" : "off" },
    progress: null,
    note: null,
  };
  const manifest = readManifestHeader(stateDir);
  if (manifest.status === "missing") status.note = "not indexed yet";
  else if (manifest.status === "corrupt") status.note = `${manifest.reason}: the next pass rebuilds`;
  else {
    const m = manifest.header;
    status.chunks = m.chunkCount;
    status.files = m.listedFiles ?? listedFiles(stateDir);
    status.provider = m.provider;
    status.model = m.model;
    status.lastIndexedAt = m.lastIndexedAt;
  }
  const watcher = readWatcherStatus(stateDir);
  if (watcher) status.watch = { state: watcher.state, backend: watcher.backend, message: watcher.message };
  const progress = readProgress(stateDir);
  // A pass over a complete index with nothing (left) to do is a routine check: the index is
  // shown as it is, not as "indexing 0/0 files".
  if (progress && (status.chunks === null || progress.filesDone < progress.filesTotal)) {
    status.progress = { filesDone: progress.filesDone, filesTotal: progress.filesTotal, phase: progress.phase };
  }
  return status;
}

export interface StatusWatchOptions {
  /** Refresh period when idle (the sidebar's 30 s). */
  idleMs?: number;
  /** Refresh period while a pass runs, so progress moves. */
  busyMs?: number;
}

/**
 * Calls `onStatus` now, every `idleMs`, every `busyMs` while indexing, and soon after any file in
 * the state folder changes (the indexer's events). Returns a function that stops everything.
 */
export function watchSidebarStatus(
  stateDir: string,
  config: () => RagConfig,
  onStatus: (s: SidebarStatus) => void,
  options: StatusWatchOptions = {},
): () => void {
  const idleMs = options.idleMs ?? 30_000;
  const busyMs = options.busyMs ?? 1_000;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let watcher: FSWatcher | null = null;
  let stopped = false;

  const refresh = () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    let s: SidebarStatus;
    try {
      s = readSidebarStatus(stateDir, config());
    } catch (err) {
      s = { ...readSidebarStatus("/nonexistent", config()), note: `status unreadable: ${(err as Error).message}` };
    }
    onStatus(s);
    ensureWatcher();
    timer = setTimeout(refresh, s.progress ? busyMs : idleMs);
  };

  const ensureWatcher = () => {
    if (watcher || !existsSync(stateDir)) return;
    try {
      let pending: ReturnType<typeof setTimeout> | null = null;
      watcher = watch(stateDir, () => {
        if (pending) return;
        pending = setTimeout(() => {
          pending = null;
          refresh();
        }, 150);
      });
      watcher.on("error", () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      watcher = null; // polling still runs
    }
  };

  refresh();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    watcher?.close();
  };
}

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function formatAge(iso: string | null, now = Date.now()): string {
  if (!iso) return "never";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** Files not skipped on purpose, counted in the table of a manifest whose header does not say. */
function listedFiles(stateDir: string): number | null {
  const read = readManifest(stateDir);
  if (read.status !== "ok") return null;
  let n = 0;
  for (const path in read.manifest.files) if (!read.manifest.files[path].skipped) n++;
  return n;
}
