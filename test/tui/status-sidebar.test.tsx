/** @jsxImportSource @opentui/solid */
// The status sidebar reads the indexer's files in the state folder and follows them live.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSignal } from "solid-js";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { StatusSidebar } from "../../tui/components/StatusSidebar.js";
import { readSidebarStatus, watchSidebarStatus, type SidebarStatus } from "../../tui/index-status.js";
import { render } from "./render.js";

let stateDir: string;
let view: Awaited<ReturnType<typeof render>> | null = null;
let stop: (() => void) | null = null;
const config = structuredClone(DEFAULT_CONFIG);
const NOW = Date.parse("2026-03-01T12:00:00Z");

function manifest(files: Record<string, number>, lastIndexedAt: string) {
  return {
    version: 1,
    lastIndexedAt,
    provider: "ollama",
    model: "nomic-embed-text",
    dimension: 768,
    chunkingFingerprint: "x",
    storeCheckpoint: 3,
    chunkCount: Object.values(files).reduce((a, b) => a + b, 0),
    keywordFile: null,
    generation: 3,
    files: Object.fromEntries(
      Object.entries(files).map(([f, n]) => [f, { size: 10, mtimeMs: 1, hash: "h", chunkIds: Array.from({ length: n }, (_, i) => `${f}#${i}`) }]),
    ),
  };
}
const write = (name: string, value: unknown) => writeFileSync(join(stateDir, name), JSON.stringify(value));

beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), "rag-tui-status-"));
});
afterEach(() => {
  stop?.();
  stop = null;
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
    expect(f).toContain("Model   local/opencode-rag-code-v1");
    expect(f).toContain("Indexed never");
    expect(f).toContain("not indexed yet");
  });

  test("shows chunks, files, model, age, watcher and progress from the indexer's files", async () => {
    write("manifest.json", manifest({ "src/a.ts": 3, "src/b.ts": 4, "README.md": 1 }, new Date(NOW - 5 * 60_000).toISOString()));
    write("watcher-status.json", { pid: process.pid, state: "watching", backend: "chokidar", updatedAt: new Date(NOW).toISOString() });
    write("index-progress.json", { pid: process.pid, startedAt: "", updatedAt: "", phase: "embedding", filesDone: 120, filesTotal: 340, chunksDone: 800 });
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

  test("a progress file left behind long ago is not shown as a running pass", () => {
    write("index-progress.json", { phase: "chunking", filesDone: 1, filesTotal: 9 });
    const old = (Date.now() - 60 * 60_000) / 1000;
    utimesSync(join(stateDir, "index-progress.json"), old, old);
    expect(readSidebarStatus(stateDir, config).progress).toBeNull();
  });

  test("unreadable files become a note, never an error", () => {
    writeFileSync(join(stateDir, "manifest.json"), "{ truncated");
    writeFileSync(join(stateDir, "watcher-status.json"), "[");
    const s = readSidebarStatus(stateDir, config);
    expect(s.note).toContain("manifest unreadable");
    expect(s.chunks).toBeNull();
  });

  test("follows an indexing pass as the indexer writes its files", async () => {
    const [status, setStatus] = createSignal<SidebarStatus | null>(null);
    // A long idle period: the updates below can only come from watching the folder.
    stop = watchSidebarStatus(stateDir, () => config, setStatus, { idleMs: 600_000, busyMs: 100 });
    const v = await show(status);
    await v.waitUntil(() => v.frame().includes("not indexed yet"));
    write("index-progress.json", { phase: "chunking", filesDone: 3, filesTotal: 10 });
    await v.waitUntil(() => v.frame().includes("Indexing 3/10 files"));
    expect(v.frame()).toContain("Indexing 3/10 files");
    write("index-progress.json", { phase: "embedding", filesDone: 9, filesTotal: 10 });
    await v.waitUntil(() => v.frame().includes("Indexing 9/10 files"));
    expect(v.frame()).toContain("90%");
    write("manifest.json", manifest({ "a.ts": 5 }, new Date().toISOString()));
    unlinkSync(join(stateDir, "index-progress.json"));
    await v.waitUntil(() => v.frame().includes("Chunks  5"));
    expect(v.frame()).toContain("Chunks  5");
    expect(v.frame()).not.toContain("Indexing");
  });
});
