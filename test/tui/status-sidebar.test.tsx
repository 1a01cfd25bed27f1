/** @jsxImportSource @opentui/solid */
// The status sidebar reads the indexer's files in the state folder (written here with the
// core's own writers and lock, as a pass writes them) and follows them live.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSignal } from "solid-js";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { acquireIndexLock, type IndexLock } from "../../core/indexing/lock.js";
import { emptyManifest, writeManifest } from "../../core/indexing/manifest.js";
import { clearProgress, writeProgress, writeWatcherStatus } from "../../core/indexing/state-files.js";
import { StatusSidebar } from "../../tui/components/StatusSidebar.js";
import { StatusLine, statusLineText } from "../../tui/components/StatusLine.js";
import { readSidebarStatus, watchSidebarStatus, type SidebarStatus } from "../../tui/index-status.js";
import { render } from "./render.js";
import { BUNDLED_MODEL_ID } from "../../core/config/defaults.js";

let stateDir: string;
let view: Awaited<ReturnType<typeof render>> | null = null;
let stop: (() => void) | null = null;
let lock: IndexLock | null = null;
const config = structuredClone(DEFAULT_CONFIG);
const NOW = Date.parse("2026-03-01T12:00:00Z");

function manifest(files: Record<string, number>, lastIndexedAt: string) {
  const m = emptyManifest("ollama", "nomic-embed-text", 768, "fp");
  m.lastIndexedAt = lastIndexedAt;
  m.chunkCount = Object.values(files).reduce((a, b) => a + b, 0);
  for (const [f, n] of Object.entries(files)) {
    m.files[f] = { size: 10, mtimeMs: 1, hash: "h", chunkIds: Array.from({ length: n }, (_, i) => `${f}#${i}`) };
  }
  m.files["logo.bin"] = { size: 10, mtimeMs: 1, hash: "h", chunkIds: [], skipped: "binary" };
  return m;
}
const progress = (filesDone: number, filesTotal: number, phase = "embedding") => ({
  pid: process.pid,
  startedAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  phase,
  filesDone,
  filesTotal,
  chunksDone: 0,
});

beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), "rag-tui-status-"));
});
afterEach(() => {
  stop?.();
  stop = null;
  lock?.release();
  lock = null;
  view?.destroy();
  view = null;
  rmSync(stateDir, { recursive: true, force: true });
});

async function show(status: () => SidebarStatus | null) {
  view = await render(() => <StatusSidebar status={status} now={() => NOW} />, { width: 40, height: 14 });
  return view;
}

describe("status sidebar", () => {
  test("an empty state folder says the workspace is not indexed yet", async () => {
    const s = readSidebarStatus(stateDir, config);
    const v = await show(() => s);
    const f = v.frame();
    expect(f).toContain("RAG index");
    expect(f).toContain("Chunks  –");
    expect(f).toContain(`Model   local/${BUNDLED_MODEL_ID}`);
    expect(f).toContain("Indexed never");
    expect(f).toContain("Watcher not running");
    expect(f).toContain("not indexed yet");
  });

  test("shows chunks, files, model, age, watcher and the running pass's progress", async () => {
    writeManifest(stateDir, manifest({ "src/a.ts": 3, "src/b.ts": 4, "README.md": 1 }, new Date(NOW - 5 * 60_000).toISOString()));
    writeWatcherStatus(stateDir, { pid: process.pid, state: "watching", backend: "chokidar", updatedAt: new Date().toISOString() });
    lock = acquireIndexLock(stateDir);
    writeProgress(stateDir, progress(120, 340));
    const s = readSidebarStatus(stateDir, config);
    const v = await show(() => s);
    const f = v.frame();
    expect(f).toContain("Chunks  8");
    expect(f).toContain("Files   3");
    expect(f).toContain("Model   ollama/nomic-embed-text");
    expect(f).toContain("Indexed 5 min ago");
    expect(f).toContain("Watcher watching (chokidar)");
    expect(f).toContain("Indexing 120/340 files");
    expect(f).toContain("35%");
    expect(f).not.toContain("not indexed yet");
  });

  test("progress left behind by a killed pass (no lock holder) is not shown", () => {
    writeProgress(stateDir, progress(1, 9));
    expect(readSidebarStatus(stateDir, config).progress).toBeNull();
  });

  test("an unreadable manifest becomes a note, never an error", () => {
    writeFileSync(join(stateDir, "manifest.json"), "{ truncated");
    writeFileSync(join(stateDir, "watcher-status.json"), "[");
    const s = readSidebarStatus(stateDir, config);
    expect(s.note).toContain("manifest.json is not valid JSON");
    expect(s.chunks).toBeNull();
  });

  test("follows an indexing pass as the indexer writes its files", async () => {
    const [status, setStatus] = createSignal<SidebarStatus | null>(null);
    // A long idle period: the updates below can only come from watching the folder.
    stop = watchSidebarStatus(stateDir, () => config, setStatus, { idleMs: 600_000, busyMs: 100 });
    const v = await show(status);
    await v.waitUntil(() => v.frame().includes("not indexed yet"));
    lock = acquireIndexLock(stateDir);
    writeProgress(stateDir, progress(3, 10, "chunking"));
    await v.waitUntil(() => v.frame().includes("Indexing 3/10 files"));
    expect(v.frame()).toContain("Indexing 3/10 files");
    writeProgress(stateDir, progress(9, 10));
    await v.waitUntil(() => v.frame().includes("Indexing 9/10 files"));
    expect(v.frame()).toContain("90%");
    writeManifest(stateDir, manifest({ "a.ts": 5 }, new Date().toISOString()));
    clearProgress(stateDir);
    lock.release();
    await v.waitUntil(() => v.frame().includes("Chunks  5"));
    expect(v.frame()).toContain("Chunks  5");
    expect(v.frame()).not.toContain("Indexing");
  });
});

describe("home screen status line", () => {
  test("says what is indexed, and the progress while a pass runs", async () => {
    writeManifest(stateDir, manifest({ "src/a.ts": 3, "src/b.ts": 1200 }, new Date(NOW - 3 * 3_600_000).toISOString()));
    writeWatcherStatus(stateDir, { pid: process.pid, state: "watching", backend: "git", updatedAt: new Date().toISOString() });
    const [status, setStatus] = createSignal<SidebarStatus | null>(readSidebarStatus(stateDir, config));
    view = await render(() => <StatusLine status={status} now={() => NOW} />, { width: 100, height: 3 });
    expect(view.frame()).toContain("opencode-rag · 1,203 chunks in 2 files · indexed 3 h ago · watcher watching");
    lock = acquireIndexLock(stateDir);
    writeProgress(stateDir, progress(50, 200));
    setStatus(readSidebarStatus(stateDir, config));
    await view.settle();
    expect(view.frame()).toContain("opencode-rag · indexing 50/200 files (25%)");
  });

  test("a first pass still scanning says so instead of 0/0 files; a check of a complete index shows the index", async () => {
    lock = acquireIndexLock(stateDir);
    writeProgress(stateDir, progress(0, 0, "scanning"));
    const [status, setStatus] = createSignal<SidebarStatus | null>(readSidebarStatus(stateDir, config));
    expect(statusLineText(status(), NOW)).toBe("opencode-rag · indexing: scanning files…");
    const side = await show(status);
    expect(side.frame()).toContain("Indexing: scanning files…");
    expect(side.frame()).not.toContain("0/0");
    writeManifest(stateDir, manifest({ "src/a.ts": 3 }, new Date(NOW - 60_000).toISOString()));
    setStatus(readSidebarStatus(stateDir, config));
    await side.settle();
    expect(side.frame()).not.toContain("Indexing");
    expect(statusLineText(status(), NOW)).toContain("opencode-rag · 3 chunks in 1 files");
  });
});
