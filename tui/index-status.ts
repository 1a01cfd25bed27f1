// Reads what the sidebar shows from the state folder the indexer writes (manifest.json,
// watcher-status.json, index-progress.json). The TUI runs on another thread than the server
// plugin that indexes, so files are the channel. The reader is tolerant: a missing, partial or
// unreadable file becomes "unknown" in the sidebar, never an exception in the UI.
import { existsSync, readFileSync, statSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import type { RagConfig } from "../core/config/defaults.js";

export const MANIFEST_FILE = "manifest.json";
export const WATCHER_STATUS_FILE = "watcher-status.json";
export const INDEX_PROGRESS_FILE = "index-progress.json";

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

type Json = Record<string, unknown>;

function readJson(file: string): Json | null | "corrupt" {
  if (!existsSync(file)) return null;
  try {
    const v = JSON.parse(readFileSync(file, "utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : "corrupt";
  } catch {
    return "corrupt";
  }
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);

/** Chunk count of one manifest file entry, whichever way the indexer records it. */
function entryChunks(entry: unknown): number {
  if (!entry || typeof entry !== "object") return 0;
  const e = entry as Json;
  if (typeof e.chunks === "number") return e.chunks;
  if (typeof e.chunkCount === "number") return e.chunkCount;
  if (Array.isArray(e.chunks)) return e.chunks.length;
  if (Array.isArray(e.chunkIds)) return e.chunkIds.length;
  return 0;
}

function manifestCounts(m: Json): { files: number | null; chunks: number | null } {
  const files = m.files;
  const entries = Array.isArray(files) ? files : files && typeof files === "object" ? Object.values(files) : null;
  const fileCount = num(m.fileCount) ?? num((m.totals as Json | undefined)?.files) ?? (entries ? entries.length : null);
  const chunkCount =
    num(m.chunkCount) ?? num(m.chunks) ?? num((m.totals as Json | undefined)?.chunks) ?? (entries ? entries.reduce((n: number, e) => n + entryChunks(e), 0) : null);
  return { files: fileCount, chunks: chunkCount };
}

/** How long a progress file may go without an update before it counts as left over from a crash. */
const STALE_PROGRESS_MS = 10 * 60_000;

export function readSidebarStatus(stateDir: string, config: RagConfig, now = Date.now()): SidebarStatus {
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
  const manifestPath = join(stateDir, MANIFEST_FILE);
  const manifest = readJson(manifestPath);
  if (manifest === null) status.note = "not indexed yet";
  else if (manifest === "corrupt") status.note = "manifest unreadable: the next pass rebuilds";
  else {
    Object.assign(status, manifestCounts(manifest));
    const emb = (manifest.embedding as Json | undefined) ?? manifest;
    status.provider = str(emb.provider) ?? status.provider;
    status.model = str(emb.model) ?? str(emb.modelId) ?? status.model;
    status.lastIndexedAt =
      str(manifest.lastIndexedAt) ?? str(manifest.updatedAt) ?? str(manifest.indexedAt) ?? new Date(statSync(manifestPath).mtimeMs).toISOString();
  }
  const watcher = readJson(join(stateDir, WATCHER_STATUS_FILE));
  if (watcher && watcher !== "corrupt") {
    status.watch = {
      state: str(watcher.state) ?? str(watcher.status) ?? "unknown",
      backend: str(watcher.backend) ?? undefined,
      message: str(watcher.message) ?? str(watcher.error) ?? undefined,
    };
  }
  const progressPath = join(stateDir, INDEX_PROGRESS_FILE);
  const progress = readJson(progressPath);
  if (progress && progress !== "corrupt") {
    const fresh = now - statSync(progressPath).mtimeMs < STALE_PROGRESS_MS;
    const phase = str(progress.phase) ?? undefined;
    const running = progress.running !== false && progress.done !== true && phase !== "done";
    if (fresh && running) {
      status.progress = { filesDone: num(progress.filesDone) ?? 0, filesTotal: num(progress.filesTotal) ?? 0, phase };
    }
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
