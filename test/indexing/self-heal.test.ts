// A store deleted or cleared under a running engine (another process ran `opencode-rag clear`,
// or the user removed .opencode/rag_db) is noticed by the next pass, which recreates it and
// re-indexes the workspace instead of failing from then on.
import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Engine, IndexSummary } from "../../core/engine-types.js";
import { engineFor, KEYWORD_ONLY, makeWorkspace, pathsHolding, trackWorkspaces, tsFunction, writeFiles } from "./helpers.js";

const { roots, engines } = trackWorkspaces();

const keywordOnly = KEYWORD_ONLY;

async function setUp(): Promise<{ root: string; engine: Engine }> {
  const root = makeWorkspace({ "src/a.ts": tsFunction("alphaSelfHealing", "a"), "src/b.ts": tsFunction("betaSelfHealing", "b") });
  roots.push(root);
  const engine = await engineFor(root, keywordOnly);
  engines.push(engine);
  await engine.index();
  expect(await pathsHolding(engine, "alphaSelfHealing")).toEqual(["src/a.ts"]);
  return { root, engine };
}

describe("a store removed under a running engine", () => {
  it("is recreated and re-indexed by the next pass after the store folder was deleted", async () => {
    const { root, engine } = await setUp();
    rmSync(engine.stateDir, { recursive: true, force: true });
    writeFiles(root, { "src/c.ts": tsFunction("gammaSelfHealing", "c") });
    const s = await engine.index();
    expect(s.filesIndexed).toBe(3);
    expect(await pathsHolding(engine, "alphaSelfHealing")).toEqual(["src/a.ts"]);
    expect(await pathsHolding(engine, "gammaSelfHealing")).toEqual(["src/c.ts"]);
    // and the pass after that is an ordinary incremental one
    expect((await engine.index()).filesIndexed).toBe(0);
  });

  it("is re-indexed after another engine cleared it", async () => {
    const { root, engine } = await setUp();
    const other = await engineFor(root, keywordOnly);
    await other.clear();
    await other.close();
    // Nothing is committed any more: no hits, and no error from the vanished table.
    expect(await engine.search("alphaSelfHealing")).toEqual([]);
    const s = await engine.index();
    expect(s.filesIndexed).toBe(2);
    expect(await pathsHolding(engine, "betaSelfHealing")).toEqual(["src/b.ts"]);
  });

  it("keeps a watcher indexing after the store folder was deleted", async () => {
    const { root, engine } = await setUp();
    const passes: IndexSummary[] = [];
    const errors: Error[] = [];
    const watcher = await engine.watch({ debounceMs: 50, onPass: (s) => passes.push(s), onError: (e) => errors.push(e) });
    try {
      rmSync(engine.stateDir, { recursive: true, force: true });
      writeFiles(root, { "src/c.ts": tsFunction("gammaSelfHealing", "c") });
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && passes.length === 0 && errors.length === 0) await new Promise((r) => setTimeout(r, 50));
      expect(errors).toEqual([]);
      expect(await pathsHolding(engine, "gammaSelfHealing")).toEqual(["src/c.ts"]);
      expect(await pathsHolding(engine, "alphaSelfHealing")).toEqual(["src/a.ts"]);
    } finally {
      await watcher.close();
    }
  });
});
