// A local store on a disk that fills up or turns read-only (a real tmpfs mount; skipped where
// this process may not mount): the pass fails with one plain line naming the disk, what to do
// and that the previous index is still in use; the CLI and the plugin's index status show that
// line; the previous index answers throughout, and the next pass after the fix commits.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { PlainError } from "../../core/errors/plain-error.js";
import { coreDeps } from "../../opencode-plugin/index.js";
import { executeTool, TOOL_DEFINITIONS } from "../../opencode-plugin/tools/definitions.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { ensureBuilt, repoRoot } from "./dist-build.js";
import { makeWorkspace, removeWorkspace, tsFunction } from "./helpers.js";

/** A fresh tmpfs of `size` at a new folder, or null where mounting is not allowed. */
function mountTmpfs(size: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), "rag-disk-"));
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return dir;
}

const mounts: string[] = [];
const roots: string[] = [];
const engines: Engine[] = [];
let canMount = false;

beforeAll(() => {
  ensureBuilt();
  const probe = process.platform === "linux" ? mountTmpfs("1m") : null;
  if (probe) {
    execFileSync("umount", [probe]);
    rmSync(probe, { recursive: true, force: true });
    canMount = true;
  }
});

afterAll(async () => {
  for (const e of engines) await e.close().catch(() => undefined);
  for (const m of mounts) {
    spawnSync("umount", ["-l", m], { stdio: "ignore" });
    rmSync(m, { recursive: true, force: true });
  }
  for (const r of roots) removeWorkspace(r);
});

/** A workspace whose store lives on a fresh tmpfs; the config file says so, for the CLI and the plugin. */
function setup(size: string): { root: string; disk: string; store: string } {
  const disk = mountTmpfs(size)!;
  mounts.push(disk);
  const store = join(disk, "rag_db");
  const files: Record<string, string> = { "src/tokens.ts": tsFunction("verifySessionToken", "checks a session token's signature") };
  for (let i = 0; i < 6; i++) files[`src/util/helper${i}.ts`] = tsFunction(`helperNumber${i}`, `doubles the value for caller ${i}`);
  const root = makeWorkspace(files);
  roots.push(root);
  const config = {
    embedding: { provider: "local", model: "./no-such-model" },
    vectorStore: { path: store },
    autoIndex: { enabled: true, backend: "chokidar", debounceMs: 50 },
    logging: { logFilePath: "" },
  };
  writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(config));
  return { root, disk, store };
}

async function open(root: string): Promise<Engine> {
  const engine = await openEngine({ root, overrides: { autoIndex: { enabled: false } } });
  engines.push(engine);
  return engine;
}

function addFiles(root: string, tag: string, n: number): void {
  mkdirSync(join(root, "src", tag), { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(join(root, "src", tag, `f${i}.ts`), tsFunction(`${tag}Function${i}`, `handles the ${tag} record ${i} `.repeat(40)));
}

/** Fills the disk to the last byte. */
function fill(disk: string): void {
  spawnSync("dd", ["if=/dev/zero", `of=${join(disk, "filler")}`, "bs=64k"], { stdio: "ignore" });
}

function cliIndex(root: string): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, "dist", "cli.js"), "index"], { cwd: root, encoding: "utf8", env: { ...process.env, LANCEDB_LOG: "error" } });
  return { code: r.status, stderr: r.stderr };
}

async function answers(engine: Engine, name: string): Promise<string[]> {
  return (await engine.search(name, { mode: "keyword", topK: 3 })).map((r) => r.chunk.filePath);
}

async function indexStatus(ws: RagWorkspace): Promise<string> {
  return (await executeTool(ws, TOOL_DEFINITIONS.find((d) => d.name === "index_status")!, {})).text;
}

describe("a local store on a disk that fails", () => {
  it("full: one plain line from the engine, the CLI and the plugin's status; the previous index answers; freed, the next pass commits", async (ctx) => {
    if (!canMount) ctx.skip();
    const { root, disk, store } = setup("16m");
    const engine = await open(root);
    await engine.index();
    expect(await answers(engine, "verifySessionToken")).toContain("src/tokens.ts");

    addFiles(root, "billing", 40);
    fill(disk);
    const line = `the disk holding ${store} is full: free some space and run the pass again; the previous index (8 files) is still in use`;
    const err = await engine.index().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PlainError);
    expect((err as PlainError).message).toBe(line);
    // The raw error is kept for --debug and the log.
    expect(String(((err as PlainError).cause as Error).message)).toMatch(/No space left on device|ENOSPC/i);
    expect(await answers(engine, "verifySessionToken")).toContain("src/tokens.ts");

    const cli = cliIndex(root);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(`opencode-rag: ${line}`);
    expect(cli.stderr).not.toMatch(/LanceError|os error/);

    // The plugin's background indexer meets the same disk: its status says it in the same words.
    const ws = new RagWorkspace(root, coreDeps);
    try {
      ws.startIndexer();
      const until = Date.now() + 30_000;
      let status = "";
      while (Date.now() < until && !(status = await indexStatus(ws)).includes("watch: watching")) await new Promise((r) => setTimeout(r, 200));
      // An edit while the disk is full: the watcher's pass fails on it.
      writeFileSync(join(root, "src/tokens.ts"), tsFunction("verifySessionToken", "checks a session token's signature, edited"));
      while (Date.now() < until && !(status = await indexStatus(ws)).includes("watch: error")) await new Promise((r) => setTimeout(r, 200));
      expect(status).toContain(`watch: error (chokidar): ${line}`);
    } finally {
      await ws.close();
    }
    expect(await answers(engine, "verifySessionToken")).toContain("src/tokens.ts");

    rmSync(join(disk, "filler"));
    const summary = await engine.index();
    expect(summary.filesIndexed).toBe(41); // the new files and the edit
    expect(await answers(engine, "billingFunction7")).toContain("src/billing/f7.ts");
  }, 120_000);

  it("read-only: one plain line from the engine and the CLI; the previous index answers; writable again, the next pass commits", async (ctx) => {
    if (!canMount) ctx.skip();
    const { root, disk, store } = setup("16m");
    const engine = await open(root);
    await engine.index();
    addFiles(root, "shipping", 5);
    execFileSync("mount", ["-o", "remount,ro", disk]);
    try {
      const line = `${store} is on a read-only file system: make it writable (or set vectorStore.path to a writable folder) and run the pass again; the previous index (8 files) is still in use`;
      await expect(engine.index()).rejects.toThrow(line);
      expect(await answers(engine, "verifySessionToken")).toContain("src/tokens.ts");
      const cli = cliIndex(root);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(`opencode-rag: ${line}`);
      // --debug adds the system's own error.
      const debug = spawnSync(process.execPath, [join(repoRoot, "dist", "cli.js"), "index", "--debug"], { cwd: root, encoding: "utf8", env: { ...process.env, LANCEDB_LOG: "error" } });
      expect(debug.stderr).toMatch(/caused by: .*(EROFS|read-only file system)/i);
      expect(debug.stderr).toContain(`opencode-rag: ${line}`);
    } finally {
      execFileSync("mount", ["-o", "remount,rw", disk]);
    }
    expect((await engine.index()).filesIndexed).toBe(5);
    expect(await answers(engine, "shippingFunction3")).toContain("src/shipping/f3.ts");
  }, 120_000);
});
