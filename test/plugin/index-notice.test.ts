// What the tools and the TUI say about a pass in progress: a pass over a complete index that
// has nothing (left) to do is a routine check, never "Index is still building: 0/0 files".
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import type { IndexStatus } from "../../core/engine-types.js";
import { acquireIndexLock, type IndexLock } from "../../core/indexing/lock.js";
import { emptyManifest, writeManifest } from "../../core/indexing/manifest.js";
import { writeProgress } from "../../core/indexing/state-files.js";
import { indexNotice } from "../../opencode-plugin/tools/context.js";
import { readSidebarStatus } from "../../tui/index-status.js";

const status = (chunks: number, indexing: IndexStatus["indexing"]) => ({ chunks, indexing }) as IndexStatus;
const pass = (filesDone: number, filesTotal: number) => ({ filesDone, filesTotal, startedAt: "2026-01-01T00:00:00.000Z" });

describe("indexNotice", () => {
  it("is silent on a complete index while a pass checks it or finishes", () => {
    expect(indexNotice(status(120, pass(0, 0)))).toBeNull();
    expect(indexNotice(status(120, pass(7, 7)))).toBeNull();
    expect(indexNotice(status(120, null))).toBeNull();
  });

  it("tells a first pass or an update with work left, with its counts", () => {
    expect(indexNotice(status(0, pass(0, 0)))).toMatch(/^Index is still building: scanning the workspace/);
    expect(indexNotice(status(0, pass(12, 53)))).toMatch(/^Index is still building: indexing 12\/53 files/);
    expect(indexNotice(status(120, pass(1, 3)))).toMatch(/indexing 1\/3 files/);
    expect(indexNotice(status(0, null))).toMatch(/^The index is empty/);
  });
});

describe("TUI status while a pass runs", () => {
  let dir: string;
  let lock: IndexLock | null = null;
  afterEach(() => {
    lock?.release();
    lock = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows a complete index as it is during a pass with nothing to do", () => {
    dir = mkdtempSync(join(tmpdir(), "rag-notice-"));
    const m = emptyManifest("local", "m", 256, "f");
    m.chunkCount = 2;
    m.files["a.ts"] = { size: 1, mtimeMs: 1, hash: "h", chunkIds: ["a#0", "a#1"] };
    writeManifest(dir, m);
    lock = acquireIndexLock(dir);
    const progress = (filesDone: number, filesTotal: number) =>
      writeProgress(dir, { pid: process.pid, startedAt: "x", updatedAt: "x", phase: "scanning", filesDone, filesTotal, chunksDone: 0 });
    progress(0, 0);
    expect(readSidebarStatus(dir, DEFAULT_CONFIG).progress).toBeNull();
    progress(2, 5);
    expect(readSidebarStatus(dir, DEFAULT_CONFIG).progress).toMatchObject({ filesDone: 2, filesTotal: 5 });
  });
});
