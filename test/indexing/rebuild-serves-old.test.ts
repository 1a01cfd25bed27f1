// While `index --force` (or an automatic rebuild) runs, searches keep answering from the last
// committed index, in this engine and in another one on the same store, until the new index
// is complete and its manifest swaps it in.
import { describe, expect, it } from "vitest";
import { KEYWORD_ONLY, pathsHolding, trackWorkspaces, tsFunction } from "./helpers.js";

const tracked = trackWorkspaces();

const keywordOnly = KEYWORD_ONLY;

describe("a rebuild in progress", () => {
  it("does not empty search results: the committed index answers until the new one is complete", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`src/f${String(i).padStart(3, "0")}.ts`] = tsFunction(`rebuildServes${i}`, `file number ${i}`);
    const root = tracked.workspace(files);
    const a = await tracked.engine(root, keywordOnly);
    await a.index();
    const b = await tracked.engine(root, keywordOnly);
    expect(await pathsHolding(b, "rebuildServes150")).toEqual(["src/f150.ts"]);

    let mid: Promise<[string[], string[]]> | null = null;
    let searchedAt = 0;
    let passDoneAt = 0;
    const pass = a
      .index({
        force: true,
        onProgress: (p) => {
          if (mid || p.phase === "scanning") return;
          mid = Promise.all([pathsHolding(a, "rebuildServes150"), pathsHolding(b, "rebuildServes199")]).then((r) => {
            searchedAt = performance.now();
            return r;
          });
        },
      })
      .then((s) => {
        passDoneAt = performance.now();
        return s;
      });
    const summary = await pass;
    expect(summary.rebuildReason).toMatch(/full rebuild/);
    expect(mid).not.toBeNull();
    const [fromA, fromB] = await mid!;
    expect(searchedAt).toBeLessThan(passDoneAt); // really answered mid-pass
    expect(fromA).toEqual(["src/f150.ts"]);
    expect(fromB).toEqual(["src/f199.ts"]);
    // and after the swap, the new index answers
    expect(await pathsHolding(a, "rebuildServes7")).toEqual(["src/f007.ts"]);
    expect(await pathsHolding(b, "rebuildServes8")).toEqual(["src/f008.ts"]);
  });

  it("keeps vector search on the committed version too (bundled model)", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`src/g${String(i).padStart(3, "0")}.ts`] = tsFunction(`vectorServes${i}`, `parse the shipping label number ${i}`);
    const root = tracked.workspace(files);
    const a = await tracked.engine(root, { logging: { logFilePath: "" } });
    await a.index();
    const before = (await a.search("parse the shipping label", { mode: "vector", topK: 5 })).length;
    expect(before).toBe(5);
    let mid: Promise<number> | null = null;
    await a.index({
      force: true,
      onProgress: (p) => {
        if (!mid && p.phase !== "scanning") mid = a.search("parse the shipping label", { mode: "vector", topK: 5 }).then((r) => r.length);
      },
    });
    expect(await mid).toBe(5);
  });

  it("works the same on the in-memory store", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`m/h${i}.ts`] = tsFunction(`memoryServes${i}`, `file ${i}`);
    const root = tracked.workspace(files);
    const a = await tracked.engine(root, { ...keywordOnly, vectorStore: { path: "memory://" } });
    await a.index();
    let mid: Promise<string[]> | null = null;
    await a.index({
      force: true,
      onProgress: (p) => {
        if (!mid && p.phase !== "scanning") mid = pathsHolding(a, "memoryServes42");
      },
    });
    expect(await mid).toEqual(["m/h42.ts"]);
    expect(await pathsHolding(a, "memoryServes3")).toEqual(["m/h3.ts"]);
  });
});
