// A pass commits the table's rows and the keyword index's documents in one order, so a keyword
// hit's document number is its row in the table (ScoredId.row), and the store reads hinted rows
// by place instead of scanning every id. Hints are only ever checked guesses: once documents
// were removed (a keyword delta's edits) the index gives none, and searches answer the same.
import { describe, expect, it } from "vitest";
import { loadKeywordSnapshot } from "../../core/indexing/keyword-files.js";
import { readManifest } from "../../core/indexing/manifest.js";
import { openLanceStore } from "../../core/store/lancedb.js";
import { KEYWORD_ONLY, trackWorkspaces, tsFunction, writeFiles } from "./helpers.js";

const tracked = trackWorkspaces();

function files(n: number, tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[`src/m${i % 4}/f${i}.ts`] = tsFunction(`handle${tag}${i}`, `step ${i} of the ${tag} flow`) + tsFunction(`check${tag}${i}`, `guard ${i}`);
  return out;
}

async function committed(stateDir: string) {
  const read = readManifest(stateDir);
  if (read.status !== "ok") throw new Error("no manifest");
  const keyword = loadKeywordSnapshot(stateDir, read.manifest)!;
  const store = await openLanceStore({ uri: stateDir, tableName: "chunks", dimension: null });
  return { keyword, store };
}

describe("row hints from the keyword index", () => {
  it("name each document's row in the table a pass committed", async () => {
    const root = tracked.workspace(files(24, "Order"));
    const engine = await tracked.engine(root, KEYWORD_ONLY);
    await engine.index();
    const { keyword, store } = await committed(engine.stateDir);
    const hits = keyword.search("handle order flow step", 500);
    expect(hits.length).toBeGreaterThan(20);
    expect(hits.every((h) => h.row !== undefined)).toBe(true);
    // the rows hold exactly the hits' records, read by place: no scan of the ids
    const table = (store as unknown as { table: { query: () => unknown } }).table;
    let filters = 0;
    const query = table.query.bind(table);
    table.query = () => (filters++, query());
    const records = await store.getByIds(hits.map((h) => h.id), hits.map((h) => h.row!));
    expect(records.map((r) => r.id)).toEqual(hits.map((h) => h.id));
    expect(filters).toBe(0);
    await store.close();

    // a small pass (a keyword delta on top of the snapshot: removals, so no hints) answers as well
    writeFiles(root, { "src/m1/f1.ts": tsFunction("handleOrderRenamed", "step one of the order flow"), "src/m9/new.ts": tsFunction("handleOrderNew", "a new order flow step") });
    await engine.index();
    expect((await engine.search("handleOrderRenamed", { topK: 3 }))[0].chunk.filePath).toBe("src/m1/f1.ts");
    expect((await engine.search("handleOrderNew", { topK: 3 }))[0].chunk.filePath).toBe("src/m9/new.ts");
    expect((await engine.search("handleOrder5", { topK: 3 }))[0].chunk.filePath).toBe("src/m1/f5.ts");
  });

  it("are not given once documents were removed, and searches answer the same", async () => {
    const root = tracked.workspace(files(12, "Ship"));
    const engine = await tracked.engine(root, KEYWORD_ONLY);
    await engine.index();
    const { keyword, store } = await committed(engine.stateDir);
    const before = keyword.search("handle ship flow", 50);
    keyword.removeFilePaths(["src/m0/f0.ts"]);
    const after = keyword.search("handle ship flow", 50);
    expect(before.every((h) => h.row !== undefined)).toBe(true);
    expect(after.some((h) => h.row !== undefined)).toBe(false);
    // stale hints (shifted by one) still give exactly the records asked for
    const ids = before.map((h) => h.id);
    expect((await store.getByIds(ids, before.map((h) => h.row! + 1))).map((r) => r.id)).toEqual(ids);
    await store.close();
  });
});
