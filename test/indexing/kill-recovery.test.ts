// An index pass killed with SIGKILL at an arbitrary point must leave the previous index fully
// usable, and the next pass must end consistent: store rows = manifest = keyword index.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOllama } from "../fakes/ollama.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";
import { openVectorStore } from "../../core/store/index.js";
import { engineFor, makeWorkspace, ollamaOverrides, removeWorkspace, writeFiles } from "./helpers.js";
import { ensureBuilt } from "./dist-build.js";

const FILES = 300;
let ollama: FakeHttpServer;
const roots: string[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  ollama = await startFakeOllama({ models: { "embed-a": 16 } });
});
afterAll(async () => {
  await ollama.close();
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  for (const r of roots.splice(0)) removeWorkspace(r);
});

function files(version: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) {
    out[`src/mod${i}.ts`] = `export function ${version}Handler${i}(x: number): number {\n  return x + ${i};\n}\n`;
  }
  return out;
}

interface Progress {
  phase: string;
  filesDone: number;
  chunksDone: number;
}

/**
 * Embedded past the second batch of 100 files: the first two batches' vectors are in the
 * embedding cache and their rows written, the third batch is on its way to the model.
 */
const pastTwoBatches = (p: Progress) => p.chunksDone > 200;

/** Starts a pass in a child process and SIGKILLs it once the progress file satisfies `when`. */
async function killMidPass(root: string, overrides: object, stateDir: string, when: (p: Progress) => boolean): Promise<"killed" | "finished"> {
  const child = spawn(process.execPath, [join(import.meta.dirname, "index-child.mjs"), root, JSON.stringify(overrides)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LANCEDB_LOG: "error" },
  });
  children.push(child);
  let exited = false;
  child.on("exit", () => (exited = true));
  for (;;) {
    if (exited) return "finished";
    try {
      const p = JSON.parse(readFileSync(join(stateDir, "index-progress.json"), "utf8"));
      if (when(p)) break;
    } catch {
      // not written yet, or replaced right now
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  return "killed";
}

async function storeRows(stateDir: string): Promise<number> {
  const store = await openVectorStore({ uri: stateDir, tableName: "chunks", dimension: 16 });
  try {
    return await store.count();
  } finally {
    await store.close();
  }
}

describe("kill -9 during indexing", () => {
  it("keeps the previous index usable and the next pass consistent", async () => {
    const root = makeWorkspace(files("first"));
    roots.push(root);
    const overrides = ollamaOverrides(ollama.url, "embed-a");
    const engine = await engineFor(root, overrides);
    const baseline = await engine.index();
    expect(baseline.filesIndexed).toBe(FILES);
    const stateDir = engine.stateDir;
    await engine.close();

    // Every file changes; the child writes its first batches of rows (200 files), then dies mid-pass.
    writeFiles(root, files("second"));
    ollama.latencyMs = 60;
    const outcome = await killMidPass(root, overrides, stateDir, pastTwoBatches);
    ollama.latencyMs = 0;
    expect(outcome).toBe("killed");

    // A reader opening now sees the previous index, not half of the new one.
    const reader = await engineFor(root, overrides);
    const status = await reader.status();
    expect(status.manifestStatus).toBe("ok");
    expect(status.chunks).toBe(baseline.chunksAdded);
    const old = await reader.search("firstHandler7", { topK: 3 });
    expect(old[0]?.chunk.content).toContain("firstHandler7");
    const half = await reader.search("secondHandler7", { topK: 20 });
    expect(half.filter((r) => r.chunk.content.includes("second"))).toEqual([]);
    expect(await storeRows(stateDir)).toBe(baseline.chunksAdded);

    // The next pass finishes the job and everything agrees.
    const s = await reader.index();
    expect(s.filesIndexed).toBe(FILES);
    // Vectors the killed pass already got from the model are reused, not asked for again.
    expect(s.chunksFromCache).toBeGreaterThanOrEqual(200);
    expect(s.chunksEmbedded).toBeLessThan(FILES);
    const after = await reader.status();
    expect(after).toMatchObject({ manifestStatus: "ok", pendingFiles: 0, files: FILES });
    expect(await storeRows(stateDir)).toBe(after.chunks);
    const fresh = await reader.search("secondHandler7", { topK: 3 });
    expect(fresh[0]?.chunk.content).toContain("secondHandler7");
    const stale = await reader.search("firstHandler7", { topK: 20 });
    expect(stale.filter((r) => r.chunk.content.includes("firstHandler"))).toEqual([]);
    expect((await reader.index()).filesIndexed).toBe(0);
    await reader.close();
  });

  it("stays consistent when killed while committing (or just after)", async () => {
    const root = makeWorkspace(files("first"));
    roots.push(root);
    const overrides = ollamaOverrides(ollama.url, "embed-a");
    const engine = await engineFor(root, overrides);
    await engine.index();
    const stateDir = engine.stateDir;
    await engine.close();
    writeFiles(root, files("second"));
    // Killed in the commit step if the poll catches it there; a pass that got through is fine too.
    await killMidPass(root, overrides, stateDir, (p) => p.filesDone >= FILES && p.phase === "writing");

    const reader = await engineFor(root, overrides);
    const status = await reader.status();
    expect(status.manifestStatus).toBe("ok");
    // A kill before the manifest was written leaves the pass's rows in the table until the
    // first search rolls them back (as in the test above): compare after one, as a user would.
    await reader.search("firstHandler9", { topK: 3 });
    expect(await storeRows(stateDir)).toBe(status.chunks);
    await reader.index();
    const after = await reader.status();
    expect(after).toMatchObject({ pendingFiles: 0, files: FILES });
    expect(await storeRows(stateDir)).toBe(after.chunks);
    const fresh = await reader.search("secondHandler9", { topK: 3 });
    expect(fresh[0]?.chunk.content).toContain("secondHandler9");
    await reader.close();
  });

  it("recovers from a kill during the very first pass", async () => {
    const root = makeWorkspace(files("only"));
    roots.push(root);
    const overrides = ollamaOverrides(ollama.url, "embed-a");
    const stateDir = join(root, ".opencode", "rag_db");
    ollama.latencyMs = 60;
    const outcome = await killMidPass(root, overrides, stateDir, pastTwoBatches);
    ollama.latencyMs = 0;
    expect(outcome).toBe("killed");

    const engine = await engineFor(root, overrides);
    expect((await engine.status()).manifestStatus).toBe("missing");
    const s = await engine.index();
    expect(s.filesIndexed).toBe(FILES);
    expect(await storeRows(stateDir)).toBe((await engine.status()).chunks);
    const hit = await engine.search("onlyHandler42", { topK: 1 });
    expect(hit[0]?.chunk.filePath).toBe("src/mod42.ts");
    await engine.close();
  });
});
