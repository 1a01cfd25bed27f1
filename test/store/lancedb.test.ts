import { afterAll, describe, expect, test } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LanceVectorStore, StoreDimensionMismatchError, chunkSchema, openLanceStore } from "../../core/store/lancedb.js";
import { MemoryVectorStore } from "../../core/store/memory.js";
import { openVectorStore } from "../../core/store/index.js";
import type { SearchFilter } from "../../core/types.js";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { createLocalProvider } from "../../core/embedding/local.js";
import { DIM, axis, countTableCalls, row, sampleRows } from "./fixtures.js";
import { storeContract } from "./store-contract.js";

const root = mkdtempSync(join(tmpdir(), "ocr-lance-"));
let n = 0;
const freshDir = () => join(root, `db${n++}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("LanceVectorStore", () => {
  storeContract("lancedb", async () => openVectorStore({ uri: freshDir(), tableName: "chunks", dimension: DIM }));

  // A table written before records were packed keeps one column per field: read and written as it is.
  storeContract("lancedb, a table of one column per field", async () => {
    const dir = freshDir();
    const lancedb = await import("@lancedb/lancedb");
    const db = await lancedb.connect(dir);
    await db.createEmptyTable("chunks", chunkSchema(DIM, "columns"));
    db.close();
    return openVectorStore({ uri: dir, tableName: "chunks", dimension: DIM });
  });

  test("a new table keeps each record in one column beside the columns SQL names, and any text comes back as written", async () => {
    const dir = freshDir();
    const store = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    const text = 'say "hi"\\n\tdone\n// ünïcödé ✓ 🚀 \u0000 end';
    const tricky = row("t1", "src/dir with space/ü.ts", axis(1), { content: text, symbol: "a\"b", context: "[1,2]", description: "{}", startLine: 7, endLine: 9 });
    await store.add([row("a1", "src/a.ts", axis(0)), tricky]);
    const lancedb = await import("@lancedb/lancedb");
    const db = await lancedb.connect(dir);
    const columns = (await (await db.openTable("chunks")).schema()).fields.map((f) => f.name);
    db.close();
    expect(columns).toEqual(["id", "vector", "filePath", "language", "kind", "contentHash", "record"]);
    const { vector: _, ...want } = tricky;
    expect(await store.getByIds(["t1"], [1])).toEqual([want]); // read by place
    expect(await store.getByIds(["t1"])).toEqual([want]); // read by id
    const reopened = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    expect((await reopened.searchVector(axis(1), 1))[0].id).toBe("t1");
    expect(await reopened.getByIds(["t1"])).toEqual([want]);
    expect((await reopened.vectorsByIds(["t1"]))[0]).toMatchObject({ contentHash: "h-t1", description: "{}" });
    await reopened.close();
    await store.close();
  });

  test("a folder URI opens LanceDB and the data survives reopening", async () => {
    const dir = freshDir();
    const store = await openVectorStore({ uri: dir, tableName: "chunks", dimension: DIM });
    expect(store).toBeInstanceOf(LanceVectorStore);
    await store.add(sampleRows());
    await store.close();
    const again = await openVectorStore({ uri: dir, tableName: "chunks", dimension: DIM });
    expect(await again.count()).toBe(8);
    expect((await again.searchVector(axis(0), 1))[0].id).toBe("a1");
    await again.close();
  });

  /** A store holding sampleRows(), and their ids in table order. */
  async function sampleStore() {
    const store = await openLanceStore({ uri: freshDir(), tableName: "chunks", dimension: DIM });
    const rows = sampleRows();
    await store.add(rows);
    return { store, rows, ids: rows.map((r) => r.id) };
  }

  test("reads hinted rows by place, checks them by id, and reads what they missed by id", async () => {
    const { store, rows, ids } = await sampleStore();
    // Count the reads by id filter (the scan of every id that hints spare).
    const filters = countTableCalls(store, "query");
    const fresh = () => openLanceStore({ uri: store.uri, tableName: "chunks", dimension: DIM });

    // right hints: every record, read by place
    const byPlace = await store.getByIds([ids[5], ids[0], ids[3]], [5, 0, 3]);
    expect(byPlace.map((r) => r.id)).toEqual([ids[5], ids[0], ids[3]]);
    expect(byPlace[0]).toMatchObject({ filePath: rows[5].filePath, startLine: rows[5].startLine });
    expect(filters()).toBe(0);

    // wrong and impossible hints: still exactly the records asked for, the rest read by id
    const other = await fresh();
    expect((await other.getByIds([ids[1], ids[2], "nope"], [2, 99, 1])).map((r) => r.id)).toEqual([ids[1], ids[2]]);
    expect((await other.getByIds([ids[4], ids[6]], [-1, 6])).map((r) => r.id)).toEqual([ids[4], ids[6]]);
    await other.close();
    await store.close();
  });

  test("stops reading hinted rows once they mostly miss, until the table changes", async () => {
    const { store, ids } = await sampleStore();
    const takes = countTableCalls(store, "takeOffsets");
    const reversed = ids.map((_, i) => ids.length - 1 - i); // every hint wrong
    expect((await store.getByIds(ids.slice(0, 3), reversed.slice(0, 3))).map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect(takes()).toBe(1);
    expect((await store.getByIds(ids.slice(3, 6), [3, 4, 5])).map((r) => r.id)).toEqual(ids.slice(3, 6));
    expect(takes()).toBe(1); // not tried again at this version
    await store.add([row("z1", "src/z.ts", axis(7))]);
    expect((await store.getByIds([ids[6]], [6])).map((r) => r.id)).toEqual([ids[6]]);
    expect(takes()).toBe(2);
    await store.close();
  });

  test("a checkpoint taken before closing can be restored after reopening", async () => {
    const dir = freshDir();
    const store = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    await store.add(sampleRows());
    const committed = await store.checkpoint();
    await store.add([row("half", "src/half.ts", axis(7))]); // a pass that was then killed
    await store.close();
    const again = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    await again.rollbackTo(committed);
    expect(await again.getByIds(["half"])).toEqual([]);
    expect(await again.count()).toBe(8);
    await again.close();
  });

  test("a model with another dimension is refused with the fix, or the table is recreated on request", async () => {
    const dir = freshDir();
    const store = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    await store.add(sampleRows());
    await store.close();
    await expect(openLanceStore({ uri: dir, tableName: "chunks", dimension: 4 })).rejects.toThrow(StoreDimensionMismatchError);
    await expect(openLanceStore({ uri: dir, tableName: "chunks", dimension: 4 })).rejects.toThrow(/8-dimensional.*4-dimensional.*--force/);
    // Refusing kept the old data intact.
    const kept = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    expect(await kept.count()).toBe(8);
    await kept.close();
    const rebuilt = await openLanceStore({ uri: dir, tableName: "chunks", dimension: 4, recreateOnDimensionChange: true });
    expect(rebuilt.dimension).toBe(4);
    expect(await rebuilt.count()).toBe(0);
    await rebuilt.close();
  });

  test("keyword-only: a table without a vector column stores chunks; a keyword-only engine can read a table with vectors", async () => {
    const dir = freshDir();
    const plain = await openLanceStore({ uri: dir, tableName: "plain", dimension: null });
    expect(plain.dimension).toBeNull();
    await plain.add(sampleRows().map((r) => ({ ...r, vector: null })));
    expect((await plain.getByIds(["m1"]))[0].kind).toBe("section");
    await expect(plain.searchVector(axis(0), 3)).rejects.toThrow(/keyword-only/);
    await plain.close();
    // Vectors arriving later (a model became available) need a rebuild.
    await expect(openLanceStore({ uri: dir, tableName: "plain", dimension: DIM })).rejects.toThrow(/no vectors/);

    const withVectors = await openLanceStore({ uri: dir, tableName: "vec", dimension: DIM });
    await withVectors.add(sampleRows());
    await withVectors.close();
    const reader = await openLanceStore({ uri: dir, tableName: "vec", dimension: null });
    expect(reader.dimension).toBe(DIM);
    expect(await reader.count()).toBe(8);
    await reader.close();
  });

  test("same answers as the in-memory store on the same data", async () => {
    const lance = await openVectorStore({ uri: freshDir(), tableName: "chunks", dimension: DIM });
    const memory = new MemoryVectorStore(DIM);
    const rows = [...sampleRows()];
    // A few hundred rows with pseudo-random vectors so that the orderings are non-trivial.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (let i = 0; i < 300; i++) {
      const v = new Float32Array(DIM).map(() => rnd());
      rows.push(row(`r${i}`, `pkg${i % 5}/f${i % 17}.ts`, v, { language: i % 3 ? "typescript" : "go", kind: i % 11 ? "function" : "quirk" }));
    }
    await lance.add(rows);
    await memory.add(rows);
    const filters: Array<SearchFilter | undefined> = [undefined, { pathPrefixes: ["pkg1/"] }, { languages: ["go"] }, { kinds: ["quirk"] }];
    for (let q = 0; q < 5; q++) {
      const query = new Float32Array(DIM).map(() => rnd());
      for (const filter of filters) {
        const a = await lance.searchVector(query, 10, filter);
        const b = await memory.searchVector(query, 10, filter);
        expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id));
        a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i].score, 4));
      }
    }
    expect((await lance.listAll()).map((r) => r.id).sort()).toEqual((await memory.listAll()).map((r) => r.id).sort());
    await lance.close();
  });

  test("lancedb+memory:// selects LanceDB's own in-memory mode", async () => {
    const store = await openVectorStore({ uri: "lancedb+memory://", tableName: "chunks", dimension: DIM });
    expect(store).toBeInstanceOf(LanceVectorStore);
    await store.add(sampleRows());
    expect((await store.searchVector(axis(0), 1))[0].id).toBe("a1");
    await store.close();
  });

  test("bad locations and table names fail with one clear line", async () => {
    await expect(openVectorStore({ uri: freshDir(), tableName: "bad name;", dimension: DIM })).rejects.toThrow(/tableName.*invalid/);
    await expect(openVectorStore({ uri: "", tableName: "chunks", dimension: DIM })).rejects.toThrow(/vectorStore.path is empty/);
  });
});

describe("LanceVectorStore ANN index", () => {
  test("past annMinRows a checkpoint builds an HNSW index; searches run meanwhile and stay correct", async () => {
    const dir = freshDir();
    const store = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM, annMinRows: 300 });
    const rows = [];
    for (let i = 0; i < 400; i++) {
      const v = new Float32Array(DIM);
      v[i % DIM] = 1;
      v[(i + 1) % DIM] = (i % 50) / 100;
      rows.push(row(`r${i}`, `f${i % 40}.ts`, v));
    }
    await store.add(rows.slice(0, 200));
    await store.checkpoint();
    expect(store.annIndexReady).toBe(false); // too small
    await store.add(rows.slice(200));
    expect(store.annIndexReady).toBe(false); // adds alone never build
    const committing = store.checkpoint();
    const during = await store.searchVector(axis(3), 1); // not blocked by the build
    expect(during[0].score).toBeCloseTo(1, 3);
    const version = await committing;
    expect(store.annIndexReady).toBe(true);
    expect(version).toBe(await store.checkpoint()); // the index is part of the committed version
    const hits = await store.searchVector(axis(3), 5);
    expect(hits).toHaveLength(5);
    expect(hits[0].score).toBeCloseTo(1, 2);
    for (const h of hits) expect(Number(h.id.slice(1)) % DIM).toBe(3);
    // f3.ts holds ten rows: a filtered walk of the graph that comes back short is answered exactly.
    const filtered = await store.searchVector(axis(3), 5, { pathPrefixes: ["f3.ts"] });
    expect(filtered).toHaveLength(5);
    expect(filtered.every((h) => h.id.endsWith("3"))).toBe(true);
    await store.close();
    const again = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM, annMinRows: 300 });
    expect(again.annIndexReady).toBe(true);
    await again.close();
  });
});

describe("LanceVectorStore ANN recall", () => {
  test("searches through the HNSW index find nearly all of the exact nearest neighbours of real queries", async () => {
    // Real embeddings (the bundled model) of this package's own source lines, and real
    // questions: code embeddings crowd together, the hard case for a graph walked with a
    // narrow beam (LanceDB's default beam found 79% of the top 10 on the bench tree).
    const { provider } = await createLocalProvider(DEFAULT_CONFIG.embedding, { root: process.cwd() });
    const lines = new Set<string>();
    for (const file of readdirSync("core", { recursive: true }) as string[]) {
      if (!file.endsWith(".ts")) continue;
      for (const line of readFileSync(join("core", file), "utf8").split("\n")) if (line.trim().length > 24) lines.add(line.trim());
    }
    const texts = [...lines].slice(0, 5000);
    const vectors = await provider!.embed(texts, "document");
    const questions = readFileSync("test/eval/queries/natural.jsonl", "utf8").trim().split("\n").slice(0, 60).map((l) => JSON.parse(l).query as string);
    const queries = await provider!.embed(questions, "query");
    await provider!.close?.();
    const dim = vectors[0].length;
    const rows = texts.map((_, i) => row(`r${i}`, `f${i % 97}.ts`, vectors[i]));
    const lance = await openLanceStore({ uri: freshDir(), tableName: "chunks", dimension: dim, annMinRows: 1000 });
    const exact = new MemoryVectorStore(dim);
    await lance.add(rows);
    await exact.add(rows);
    await lance.checkpoint();
    expect(lance.annIndexReady).toBe(true);
    for (const k of [10, 50]) {
      let found = 0;
      for (const query of queries) {
        const truth = new Set((await exact.searchVector(query, k)).map((h) => h.id));
        found += (await lance.searchVector(query, k)).filter((h) => truth.has(h.id)).length;
      }
      expect(found / (k * queries.length), `recall@${k}`).toBeGreaterThan(0.95);
    }
    await lance.close();
  }, 60_000);
});

describe("LanceVectorStore housekeeping", () => {
  test("compact() rewrites many small writes as one fragment without changing answers; the kept version still rolls back", async () => {
    const dir = freshDir();
    const store = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    const fragments = async () => {
      const lancedb = await import("@lancedb/lancedb");
      const db = await lancedb.connect(dir);
      const table = await db.openTable("chunks");
      const count = (await table.stats()).fragmentStats.numFragments;
      db.close();
      return count;
    };
    await store.add(sampleRows().slice(0, 2));
    const older = await store.checkpoint();
    await new Promise((r) => setTimeout(r, 1100)); // versions are told apart by their dates
    await store.add(sampleRows().slice(2, 4));
    const kept = await store.checkpoint();
    for (let i = 0; i < 5; i++) await store.add([row(`s${i}`, `src/s${i}.ts`, axis(i % DIM))]);
    await store.compact(kept); // few small fragments: nothing to do
    expect(await fragments()).toBe(7);
    for (let i = 5; i < 30; i++) await store.add([row(`s${i}`, `src/s${i}.ts`, axis(i % DIM))]); // one fragment per add
    const before = await store.searchVector(axis(0), 10);
    const records = await store.getByIds(["a1", "s7", "s29"]);
    await store.compact(kept, { graceMs: 0 }); // drop every version it may
    expect(await fragments()).toBe(1);
    expect(await store.searchVector(axis(0), 10)).toEqual(before);
    expect(await store.getByIds(["a1", "s7", "s29"])).toEqual(records);
    expect(await store.count()).toBe(34);
    await store.rollbackTo(kept); // what an interrupted pass does: the kept version survived compaction
    expect(await store.count()).toBe(4);
    await expect(store.rollbackTo(older)).rejects.toThrow(/cannot roll vector store .* back to version/); // versions before it did not
    await store.close();
  });

  test("a big pass's write batches leave no files behind once the next pass keeps the compacted version", async () => {
    const dir = freshDir();
    const store = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    const tableDir = join(dir, "chunks.lance");
    const versions = () => readdirSync(join(tableDir, "_versions")).filter((n) => n.endsWith(".manifest")).length;
    const dataFiles = () => readdirSync(join(tableDir, "data")).length;
    await store.add(sampleRows().slice(0, 2));
    const committed = await store.checkpoint(); // what the manifest names before the big pass
    // The big pass: one version and one fragment per write batch, then its commit's compaction.
    for (let i = 0; i < 70; i++) await store.add([row(`b${i}`, `src/b${i}.ts`, axis(i % DIM))]);
    await store.compact(committed, { graceMs: 0 });
    expect(await store.count()).toBe(72);
    const compacted = await store.checkpoint(); // what the new manifest names
    expect(versions()).toBeGreaterThan(64); // the batches' versions: newer than the kept one
    // The next pass writes a little; few small fragments, but the versions have piled up.
    await store.add([row("late", "src/late.ts", axis(1))]);
    await store.compact(compacted, { graceMs: 0 });
    // Left: versions made by the two compactions and the late write, none holding a batch's file.
    expect(versions()).toBeLessThanOrEqual(6);
    expect(dataFiles()).toBeLessThanOrEqual(3); // the compacted file, the late write's, and their compaction
    expect((await store.searchVector(axis(3), 1))[0].id).toBe("b3");
    await store.rollbackTo(compacted); // the kept version survived
    expect(await store.count()).toBe(72);
    await store.close();
  }, 30_000);

  test("versions still in their grace do not make every pass rewrite the table: they are dropped once they may be", async () => {
    const dir = freshDir();
    const store = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    const versions = () => readdirSync(join(dir, "chunks.lance", "_versions")).filter((n) => n.endsWith(".manifest")).length;
    await store.add(sampleRows().slice(0, 2));
    // A big pass: one version per write batch, compacted at its commit, within a minute of now.
    for (let i = 0; i < 70; i++) await store.add([row(`b${i}`, `src/b${i}.ts`, axis(i % DIM))]);
    await store.compact(await store.checkpoint());
    const piled = versions();
    expect(piled).toBeGreaterThan(64);
    // The next edit's pass, within the grace: nothing can be dropped, so nothing is rewritten.
    await store.add([row("edit", "src/edit.ts", axis(2))]);
    const kept = await store.checkpoint();
    await store.compact(kept);
    expect(versions()).toBe(piled + 1);
    // Once they are past it, they go.
    await store.compact(kept, { graceMs: 0 });
    expect(versions()).toBeLessThanOrEqual(6);
    expect(await store.count()).toBe(73);
    await store.close();
  }, 30_000);

  test("a table of the same name but another shape is refused, not overwritten", async () => {
    const dir = freshDir();
    const lancedb = await import("@lancedb/lancedb");
    const db = await lancedb.connect(dir);
    await db.createTable("chunks", [{ id: "x", text: "not ours" }]);
    db.close();
    await expect(openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM })).rejects.toThrow(/lacks columns content.*delete it and re-index/);
  });
});

describe("LanceVectorStore quirk crowding", () => {
  test("many quirks nearest to the query do not crowd ordinary chunks out of the results", async () => {
    const store = await openLanceStore({ uri: freshDir(), tableName: "chunks", dimension: DIM });
    const rows = [];
    for (let i = 0; i < 40; i++) rows.push(row(`q${i}`, "notes.md", axis(0, 1, i / 1000), { kind: "quirk" }));
    for (let i = 0; i < 5; i++) rows.push(row(`f${i}`, `f${i}.ts`, axis(0, 1, 0.5 + i / 10)));
    await store.add(rows);
    const hits = await store.searchVector(axis(0), 5);
    expect(hits.map((h) => h.id).sort()).toEqual(["f0", "f1", "f2", "f3", "f4"]);
    expect((await store.searchVector(axis(0), 3, { kinds: ["quirk"] })).map((h) => h.id)).toEqual(["q0", "q1", "q2"]);
    await store.close();
  });
});

describe("LanceVectorStore across processes", () => {
  test("a second handle sees the other's writes, and records deleted there are not served from cache", async () => {
    const dir = freshDir();
    const reader = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    const writer = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    await writer.add(sampleRows());
    expect((await reader.searchVector(axis(0), 1))[0].id).toBe("a1"); // caches a1's record
    await writer.deleteByIds(["a1"]);
    expect(await reader.getByIds(["a1"])).toEqual([]);
    expect((await reader.searchVector(axis(0), 1))[0].id).toBe("q1");
    await reader.close();
    await writer.close();
  });
});
