// The plugin's workspace runtime over the real engine: the background indexer builds the index
// without being awaited (the first index in a process of its own, so its memory does not stay
// with the host), picks up a new file, and runtime overrides (written by the TUI's settings)
// are applied without a restart.
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../core/engine-types.js";
import { openEngine } from "../../core/engine.js";
import { manifestPath } from "../../core/indexing/manifest.js";
import { coreDeps } from "../../opencode-plugin/index.js";
import { indexApart } from "../../opencode-plugin/pass-apart.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { OPENCODE_BIN } from "../e2e/opencode.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";
import { tempRoot } from "./helpers.js";

beforeAll(() => ensureBuilt());

/** A logger that keeps what it is told, to see where a pass ran. */
function recordingLogger(): Logger & { lines: Array<{ level: string; message: string; data?: Record<string, unknown> }> } {
  const lines: Array<{ level: string; message: string; data?: Record<string, unknown> }> = [];
  const keep = (level: string) => (message: string, data?: Record<string, unknown>) => void lines.push({ level, message, data });
  return { lines, debug: keep("debug"), info: keep("info"), error: keep("error") } as Logger & { lines: typeof lines };
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, limitMs = 90_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("background indexer and config reload", () => {
  const root = tempRoot({
    "opencode-rag.json": JSON.stringify({ autoIndex: { enabled: true, backend: "chokidar", debounceMs: 150 } }),
    "src/billing.ts": "export function chargeInvoice(amount: number) {\n  return amount * 1.2;\n}\n",
  });
  const logger = recordingLogger();
  const ws = new RagWorkspace(root, coreDeps, { logger });
  afterAll(async () => {
    await ws.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("indexes at start without being awaited, then follows file changes", async () => {
    ws.startIndexer();
    const engine = await ws.engine();
    await waitFor("the first pass", async () => (await engine.status()).chunks > 0);
    await waitFor("the watcher", async () => (await engine.status()).watch.state === "watching");
    // The first index ran in a child process, and this process's engine answers from it.
    const apart = logger.lines.find((l) => l.message === "first index done in a process of its own");
    expect(apart?.data?.pid).toEqual(expect.any(Number));
    expect(apart?.data?.pid).not.toBe(process.pid);
    expect((await engine.search("chargeInvoice", { mode: "keyword", topK: 5 }))[0]?.chunk.filePath).toBe("src/billing.ts");
    writeFileSync(join(root, "src/shipping.ts"), "export function zebraquartzRate() {\n  return 7;\n}\n");
    const hit = await waitFor("the new file in the index", async () =>
      (await engine.search("zebraquartzRate", { mode: "keyword", topK: 5 })).find((r) => r.chunk.filePath === "src/shipping.ts"),
    );
    expect(hit.chunk.content).toContain("zebraquartzRate");
  }, 120_000);

  it("applies runtime overrides written beside the store without a restart", async () => {
    await ws.engine();
    expect(ws.config.retrieval.topK).toBe(10);
    writeFileSync(join(ws.stateDir, "runtime-overrides.json"), JSON.stringify({ retrieval: { topK: 3 } }));
    const changed = await ws.refreshConfig();
    expect(changed).toContain("retrieval.topK");
    expect(ws.config.retrieval.topK).toBe(3);
    expect(await ws.refreshConfig()).toEqual([]);
  });
});

describe("the first index in a process of its own", () => {
  const roots: string[] = [];
  const workspace = (files: Record<string, string>) => {
    const root = tempRoot({ "opencode-rag.json": JSON.stringify({ autoIndex: { enabled: true, backend: "chokidar", debounceMs: 150 }, embedding: { provider: "local", model: "./no-model" } }), ...files });
    roots.push(root);
    return root;
  };
  afterAll(() => {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it("runs under OpenCode's own binary, which runs the CLI as Bun", async () => {
    const root = workspace({ "src/ledger.ts": "export function settleLedger(total: number) {\n  return total - 1;\n}\n" });
    const logger = recordingLogger();
    const apart = indexApart(root, logger, { runtime: { command: OPENCODE_BIN, env: { BUN_BE_BUN: "1" } } });
    expect(apart).not.toBeNull();
    expect(await apart!.done).toBe(true);
    const engine = await openEngine({ root, logger: silent });
    try {
      expect(existsSync(manifestPath(engine.stateDir))).toBe(true);
      expect((await engine.search("settleLedger", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/ledger.ts");
    } finally {
      await engine.close();
    }
  }, 120_000);

  it("that fails: the watcher's first pass indexes in the host, and the log says why", async () => {
    const root = workspace({ "src/parcel.ts": "export function weighParcel(grams: number) {\n  return grams / 1000;\n}\n", "broken-cli.mjs": "process.stderr.write('the pass broke\\n'); process.exit(3);\n" });
    const logger = recordingLogger();
    const ws = new RagWorkspace(root, { ...coreDeps, indexApart: (r, l) => indexApart(r, l, { cli: join(root, "broken-cli.mjs") }) }, { logger });
    try {
      ws.startIndexer();
      const engine = await ws.engine();
      await waitFor("the first pass", async () => (await engine.status()).chunks > 0);
      const failed = logger.lines.find((l) => l.message === "the first index in a process of its own failed; indexing here");
      expect(failed?.data).toMatchObject({ code: 3, stderr: "the pass broke" });
      expect((await engine.search("weighParcel", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/parcel.ts");
    } finally {
      await ws.close();
    }
  }, 120_000);

  it("is not started where the package's CLI is not beside the plugin", () => {
    expect(indexApart(repoRoot, recordingLogger(), { cli: null })).toBeNull();
  });
});

const silent: Logger = { debug() {}, info() {}, error() {} };
