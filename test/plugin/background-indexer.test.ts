// The plugin's workspace runtime over the real engine: the background indexer builds the index
// without being awaited, picks up a new file, and runtime overrides (written by the TUI's
// settings) are applied without a restart.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { coreDeps } from "../../opencode-plugin/index.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { tempRoot } from "./helpers.js";

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
  const ws = new RagWorkspace(root, coreDeps);
  afterAll(async () => {
    await ws.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("indexes at start without being awaited, then follows file changes", async () => {
    ws.startIndexer();
    const engine = await ws.engine();
    await waitFor("the first pass", async () => (await engine.status()).chunks > 0);
    await waitFor("the watcher", async () => (await engine.status()).watch.state === "watching");
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
