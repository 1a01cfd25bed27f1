// Many small index passes (a watch session) leave one small table fragment each; the commit
// compacts them so searches do not slow down, and an interrupted pass after that still rolls
// back to the committed state.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOllama } from "../fakes/ollama.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";
import { engineFor, hitPaths, KEYWORD_ONLY, makeWorkspace, ollamaOverrides, removeWorkspace, tsFunction, writeFiles } from "./helpers.js";

let ollama: FakeHttpServer;
let root: string;
beforeAll(async () => {
  ollama = await startFakeOllama({ models: { "embed-a": 32 } });
  root = makeWorkspace({ "src/beta.ts": tsFunction("renderBetaWidget", "beta widget rendering") });
});
afterAll(async () => {
  await ollama.close();
  removeWorkspace(root);
});

async function chunksTable(workspace = root) {
  const lancedb = await import("@lancedb/lancedb");
  const db = await lancedb.connect(join(workspace, ".opencode", "rag_db"));
  return { db, table: await db.openTable("chunks") };
}

describe("table compaction at commit", () => {
  it("keeps a watch session's table in few fragments, searchable, and recoverable", async () => {
    const engine = await engineFor(root, ollamaOverrides(ollama.url, "embed-a"));
    await engine.index();
    // Each pass adds a file and edits another: new rows that stay, and rows replaced.
    for (let i = 0; i < 30; i++) {
      writeFiles(root, {
        [`src/gen${i}.ts`]: tsFunction(`generatedHelper${i}`, `generated helper number ${i}`),
        "src/alpha.ts": tsFunction(`computeAlphaChecksum${i}`, `alpha checksum number ${i}`),
      });
      const s = await engine.index({ onlyPaths: [`src/gen${i}.ts`, "src/alpha.ts"] });
      expect(s.filesIndexed).toBe(2);
    }
    const { db, table } = await chunksTable();
    const fragments = (await table.stats()).fragmentStats.numFragments;
    db.close();
    // 31 passes wrote 31 fragments that keep rows; compaction at 24 small ones folds them.
    expect(fragments).toBeLessThan(12);
    expect(await hitPaths(engine, "computeAlphaChecksum29")).toContain("src/alpha.ts");
    expect(await hitPaths(engine, "generatedHelper7")).toContain("src/gen7.ts");
    const alpha = (await engine.search("alpha checksum", { topK: 10 })).filter((r) => r.chunk.filePath === "src/alpha.ts");
    expect(alpha.map((r) => r.chunk.content).join("\n")).toContain("computeAlphaChecksum29");
    expect(alpha.map((r) => r.chunk.content).join("\n")).not.toContain("computeAlphaChecksum28(");
    const committed = (await engine.status()).chunks;
    await engine.close();

    // A pass killed after writing rows but before its manifest: the next engine rolls back.
    const { db: db2, table: t2 } = await chunksTable();
    const [row] = await t2.query().limit(1).toArray();
    await t2.add([{ ...row, id: "left-by-a-killed-pass", vector: Array.from(row.vector as Iterable<number>) }]);
    expect(await t2.countRows()).toBe(committed + 1);
    db2.close();
    const again = await engineFor(root, ollamaOverrides(ollama.url, "embed-a"));
    const s = await again.index();
    expect(s.rebuildReason).toBeNull();
    expect((await again.status()).chunks).toBe(committed);
    await again.close();
  });

  it("leaves a first index's table on disk once, not its write batches' fragments beside the compacted copy", async () => {
    // 2,600 files: 26 write batches, so 26 fragments, enough for the commit to compact them.
    const files: Record<string, string> = {};
    for (let i = 0; i < 2600; i++) files[`pkg${i % 26}/mod${i}.ts`] = tsFunction(`moduleHelper${i}`, `helper of module ${i} `.repeat(8));
    const big = makeWorkspace(files);
    try {
      const engine = await engineFor(big, KEYWORD_ONLY);
      const s = await engine.index();
      expect(s.filesIndexed).toBe(2600);
      const { db, table } = await chunksTable(big);
      const tableBytes = (await table.stats()).totalBytes;
      db.close();
      const dataDir = join(big, ".opencode", "rag_db", "chunks.lance", "data");
      const onDisk = readdirSync(dataDir).reduce((sum, f) => sum + statSync(join(dataDir, f)).size, 0);
      expect(onDisk).toBeLessThan(1.5 * tableBytes);
      expect(await hitPaths(engine, "moduleHelper1234")).toContain("pkg12/mod1234.ts");
      // and the next pass finds the index whole
      const again = await engine.index();
      expect(again.rebuildReason).toBeNull();
      expect(again.filesUnchanged).toBe(2600);
      await engine.close();
    } finally {
      removeWorkspace(big);
    }
  });
});
