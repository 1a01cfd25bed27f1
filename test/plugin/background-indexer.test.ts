// The plugin's workspace runtime over the real engine: the background indexer builds the index
// without being awaited, picks up a new file, and runtime overrides (written by the TUI's
// settings) are applied without a restart. A big first index runs in a process of its own, so
// its memory does not stay with the host (core/indexing/pass-apart.ts).
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APART_ABOVE_BYTES } from "../../core/indexing/pass-apart.js";
import { coreDeps } from "../../opencode-plugin/index.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { ensureBuilt } from "../indexing/dist-build.js";
import { recordingLogger, until } from "../indexing/helpers.js";
import { tempRoot } from "./helpers.js";

beforeAll(() => ensureBuilt());

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
    await until("the first pass", async () => (await engine.status()).chunks > 0);
    await until("the watcher", async () => (await engine.status()).watch.state === "watching");
    // A workspace this small is indexed here.
    expect(readFileSync(join(root, ".opencode", "opencode-rag.log"), "utf8")).not.toContain("in a process of its own");
    expect((await engine.search("chargeInvoice", { mode: "keyword", topK: 5 }))[0]?.chunk.filePath).toBe("src/billing.ts");
    writeFileSync(join(root, "src/shipping.ts"), "export function zebraquartzRate() {\n  return 7;\n}\n");
    const hit = await until("the new file in the index", async () =>
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

describe("a big workspace's first index", () => {
  // Over the limit, keyword-only to keep it quick: 40 files of ~56 KB.
  const file = (i: number) => Array.from({ length: 700 }, (_, k) => `export function ledger${i}Entry${k}(amount: number): number {\n  return amount + ${k};\n}\n`).join("");
  const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/ledger${i}.ts`, file(i)]));
  const root = tempRoot({ "opencode-rag.json": JSON.stringify({ autoIndex: { enabled: true, backend: "chokidar", debounceMs: 150 }, embedding: { provider: "local", model: "./no-model" } }), ...files });
  const ws = new RagWorkspace(root, coreDeps, { logger: recordingLogger() });
  afterAll(async () => {
    await ws.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("runs in a process of its own, and the plugin's engine answers from it", async () => {
    expect(Object.values(files).reduce((n, t) => n + t.length, 0)).toBeGreaterThan(APART_ABOVE_BYTES);
    ws.startIndexer();
    const engine = await ws.engine();
    // The engine keeps its own log, in the workspace's log file; the line comes once the child has ended.
    const logged = () =>
      readFileSync(join(root, ".opencode", "opencode-rag.log"), "utf8")
        .split("\n")
        .filter((l) => l.endsWith("}")) // a line still being written is left for the next look
        .map((l) => JSON.parse(l) as { message: string; pid?: number });
    const apart = await until("the first index's child to end", async () => existsSync(join(root, ".opencode", "opencode-rag.log")) && logged().find((l) => l.message === "pass done in a process of its own"));
    expect((await engine.status()).chunks).toBeGreaterThan(0);
    expect(apart?.pid).toEqual(expect.any(Number));
    expect(apart?.pid).not.toBe(process.pid);
    expect((await engine.search("ledger31Entry512", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/ledger31.ts");
  }, 120_000);
});
