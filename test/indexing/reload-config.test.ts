// Engine.reloadConfig: settings changed while a host runs (the TUI writes
// <store>/runtime-overrides.json) take effect without reopening, and it says what changed.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import { makeWorkspace, removeWorkspace, tsFunction } from "./helpers.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) removeWorkspace(r);
});

describe("reloadConfig", () => {
  it("applies runtime overrides and reports the changed keys", async () => {
    const files: Record<string, string> = {
      "opencode-rag.json": JSON.stringify({ embedding: { provider: "local", model: "./no-such-model" }, logging: { logFilePath: "" } }),
    };
    for (let i = 0; i < 8; i++) files[`src/f${i}.ts`] = tsFunction(`sharedWordHandler${i}`, "sharedWord appears in every file");
    const root = makeWorkspace(files);
    roots.push(root);
    const engine = await openEngine({ root });
    await engine.index();
    expect(await engine.search("sharedWord", {})).toHaveLength(8);
    expect(await engine.reloadConfig()).toEqual([]);

    mkdirSync(engine.stateDir, { recursive: true });
    writeFileSync(join(engine.stateDir, "runtime-overrides.json"), JSON.stringify({ retrieval: { topK: 3 } }));
    expect(await engine.reloadConfig()).toEqual(["retrieval.topK"]);
    expect(engine.config.retrieval.topK).toBe(3);
    expect(await engine.search("sharedWord", {})).toHaveLength(3);

    writeFileSync(join(engine.stateDir, "runtime-overrides.json"), JSON.stringify({ retrieval: { topK: "many" } }));
    await expect(engine.reloadConfig()).rejects.toThrow(/"retrieval.topK" must be a number/);
    expect(engine.config.retrieval.topK).toBe(3); // a bad file leaves the running config alone
    await engine.close();
  });
});
