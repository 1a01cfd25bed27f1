// A pass commits the table's rows and the keyword index's documents in one order, so a keyword
// hit's document number is its row in the table (ScoredId.row), and the store reads hinted rows
// by place instead of scanning every id: a document's row is its number less the removed ones
// before it, also after a small pass's deletions and appends. Hints are only ever checked
// guesses: stale ones still give exactly the records asked for.
import { describe, expect, it } from "vitest";
import { loadKeywordSnapshot } from "../../core/indexing/keyword-files.js";
import { readManifest } from "../../core/indexing/manifest.js";
import { openLanceStore } from "../../core/store/lancedb.js";
import { countTableCalls } from "../store/fixtures.js";
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

/** The committed index's hits for `query`, read back from the store by their row hints: records and id-filter reads. */
async function readByHints(stateDir: string, query: string) {
  const { keyword, store } = await committed(stateDir);
  const hits = keyword.search(query, 500);
  const filters = countTableCalls(store, "query");
  const records = await store.getByIds(hits.map((h) => h.id), hits.map((h) => h.row ?? -1));
  return { hits, records, filters: filters(), keyword, store };
}

describe("row hints from the keyword index", () => {
  it("name each document's row in the table a pass committed, also after a small pass's removals", async () => {
    const root = tracked.workspace(files(24, "Order"));
    const engine = await tracked.engine(root, KEYWORD_ONLY);
    await engine.index();
    const first = await readByHints(engine.stateDir, "handle order flow step");
    expect(first.hits.length).toBeGreaterThan(20);
    expect(first.hits.every((h) => h.row !== undefined)).toBe(true);
    // the rows hold exactly the hits' records, read by place: no scan of the ids
    expect(first.records.map((r) => r.id)).toEqual(first.hits.map((h) => h.id));
    expect(first.filters).toBe(0);
    await first.store.close();

    // a small pass: a keyword delta on top of the snapshot (removals and additions), the table
    // with rows deleted and appended
    writeFiles(root, { "src/m1/f1.ts": tsFunction("handleOrderRenamed", "step one of the order flow"), "src/m2/f6.ts": "// emptied\n", "src/m9/new.ts": tsFunction("handleOrderNew", "a new order flow step") });
    await engine.index();
    const after = await readByHints(engine.stateDir, "handle order flow step");
    expect(after.hits.length).toBeGreaterThan(20);
    expect(after.records.map((r) => r.id)).toEqual(after.hits.map((h) => h.id));
    expect(after.filters).toBe(0);
    expect(after.records.some((r) => r.filePath === "src/m9/new.ts")).toBe(true);
    await after.store.close();
    expect((await engine.search("handleOrderRenamed", { topK: 3 }))[0].chunk.filePath).toBe("src/m1/f1.ts");
  });

  it("that are stale still give exactly the records asked for", async () => {
    const root = tracked.workspace(files(12, "Ship"));
    const engine = await tracked.engine(root, KEYWORD_ONLY);
    await engine.index();
    const { keyword, store } = await committed(engine.stateDir);
    const hits = keyword.search("handle ship flow", 50);
    const ids = hits.map((h) => h.id);
    // shifted by one, and as if the table had lost a file it still holds
    expect((await store.getByIds(ids, hits.map((h) => h.row! + 1))).map((r) => r.id)).toEqual(ids);
    keyword.removeFilePaths(["src/m0/f0.ts"]);
    const shifted = keyword.search("handle ship flow", 50);
    expect((await store.getByIds(shifted.map((h) => h.id), shifted.map((h) => h.row!))).map((r) => r.id)).toEqual(shifted.map((h) => h.id));
    await store.close();
  });
});
