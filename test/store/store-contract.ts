// The behaviour every VectorStore must show, run against each implementation so that the
// in-memory store and LanceDB stay interchangeable.
import { expect, test } from "vitest";
import type { VectorStore } from "../../core/types.js";
import { axis, row, sampleRows } from "./fixtures.js";

export function storeContract(name: string, open: () => Promise<VectorStore>): void {
  test(`${name}: nearest neighbours by cosine, scores in [0,1], best first`, async () => {
    const store = await open();
    await store.add(sampleRows());
    expect(await store.count()).toBe(8);
    const hits = await store.searchVector(axis(0), 10);
    expect(hits.map((h) => h.id)).toEqual(["a1", "q1", "p1", "a2", "b1", "m1"]); // no quirk, no null vector
    expect(hits[0].score).toBeCloseTo(1, 5);
    for (const h of hits) expect(h.score).toBeGreaterThanOrEqual(0), expect(h.score).toBeLessThanOrEqual(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
    expect(hits.find((h) => h.id === "a2")!.score).toBeCloseTo(1 / Math.sqrt(1.25), 4);
    expect(await store.searchVector(axis(0), 2)).toHaveLength(2);
    await store.close();
  });

  test(`${name}: filters by path prefix, language and kind, with quotes and wildcards taken literally`, async () => {
    const store = await open();
    await store.add(sampleRows());
    const ids = async (f: Parameters<VectorStore["searchVector"]>[2]) => (await store.searchVector(axis(0), 10, f)).map((h) => h.id).sort();
    expect(await ids({ pathPrefixes: ["src/a"] })).toEqual(["a1", "a2"]);
    expect(await ids({ pathPrefixes: ["src/o'"] })).toEqual(["q1"]);
    expect(await ids({ pathPrefixes: ["src/b_%"] })).toEqual(["b1"]);
    expect(await ids({ pathPrefixes: ["src/b%"] })).toEqual([]);
    expect(await ids({ pathPrefixes: ["lib/", "docs/"] })).toEqual(["m1", "p1"]);
    expect(await ids({ languages: ["python", "markdown"] })).toEqual(["m1", "p1"]);
    expect(await ids({ kinds: ["quirk"] })).toEqual(["k1"]);
    expect(await ids({ kinds: ["quirk", "section"], pathPrefixes: ["docs"] })).toEqual(["m1"]);
    expect(await ids({ languages: ["x' OR '1'='1"] })).toEqual([]);
    await store.close();
  });

  test(`${name}: getByIds returns full records in the order asked, skipping unknown ids`, async () => {
    const store = await open();
    await store.add(sampleRows());
    const got = await store.getByIds(["p1", "zz", "n1"]);
    expect(got.map((r) => r.id)).toEqual(["p1", "n1"]);
    const { vector: _v, ...expected } = sampleRows().find((r) => r.id === "p1")!;
    expect(got[0]).toEqual(expected);
    expect((await store.listAll()).map((r) => `${r.id}:${r.filePath}:${r.contentHash}`).sort()).toContain("p1:lib/util.py:h-p1");
    await store.close();
  });

  test(`${name}: text in any script and absent optional fields come back as written`, async () => {
    const store = await open();
    const content = "const π = 3.14; // 円周率 — naïve café 🚀 \u0000 tab\tend";
    const bare = { ...row("u1", "src/ünï/日本.ts", axis(3), { content, symbol: "π" }) } as Partial<ReturnType<typeof row>>;
    delete bare.context;
    delete bare.description;
    await store.add([bare as ReturnType<typeof row>, row("u2", "src/empty.ts", null, { content: "" })]);
    const [u1, u2] = await store.getByIds(["u1", "u2"]);
    expect(u1).toMatchObject({ content, filePath: "src/ünï/日本.ts", symbol: "π" });
    expect([u1.context ?? "", u1.description ?? ""]).toEqual(["", ""]);
    expect(u2.content).toBe("");
    expect((await store.searchVector(axis(3), 5)).map((h) => h.id)).toEqual(["u1"]);
    await store.close();
  });

  test(`${name}: vectorsByIds gives each stored vector with its content hash and description`, async () => {
    const store = await open();
    await store.add([...sampleRows(), row("d1", "src/d.ts", axis(5), { description: "adds two numbers" })]);
    const got = await store.vectorsByIds!(["a1", "d1", "n1", "zz"]);
    // n1 has no vector and zz no row: both left out.
    expect(got.map((v) => `${v.contentHash}:${v.description}`).sort()).toEqual(["h-a1:", "h-d1:adds two numbers"]);
    const a1 = got.find((v) => v.contentHash === "h-a1")!;
    expect(a1.vector).toBeInstanceOf(Float32Array);
    expect(Array.from(a1.vector)).toEqual(Array.from(axis(0)));
    expect(await store.vectorsByIds!([])).toEqual([]);
    await store.close();
  });

  test(`${name}: deletes by file path and by id`, async () => {
    const store = await open();
    await store.add(sampleRows());
    await store.deleteByFilePaths(["src/a.ts", "src/o'brien.ts"]);
    expect((await store.listAll()).map((r) => r.id).sort()).toEqual(["b1", "m1", "n1", "p1"]);
    await store.deleteByIds(["b1", "nope"]);
    expect(await store.count()).toBe(3);
    await store.deleteByIds([]);
    await store.deleteByFilePaths([]);
    expect(await store.count()).toBe(3);
    await store.close();
  });

  test(`${name}: rollback to a checkpoint undoes an interrupted pass`, async () => {
    const store = await open();
    await store.add(sampleRows());
    const committed = await store.checkpoint();
    await store.deleteByFilePaths(["src/a.ts"]);
    await store.add([row("new", "src/new.ts", axis(5))]);
    expect((await store.searchVector(axis(5), 1))[0].id).toBe("new");
    await store.rollbackTo(committed);
    expect(await store.count()).toBe(8);
    expect((await store.getByIds(["new"])).length).toBe(0);
    expect((await store.searchVector(axis(0), 1))[0].id).toBe("a1");
    // The store keeps working after a rollback.
    await store.add([row("after", "src/after.ts", axis(6))]);
    expect(await store.count()).toBe(9);
    await store.close();
  });

  test(`${name}: clear empties the store and can itself be rolled back`, async () => {
    const store = await open();
    await store.add(sampleRows());
    const before = await store.checkpoint();
    await store.clear();
    expect(await store.count()).toBe(0);
    expect(await store.searchVector(axis(0), 5)).toEqual([]);
    await store.rollbackTo(before);
    expect(await store.count()).toBe(8);
    await store.close();
  });

  test(`${name}: rejects vectors of the wrong dimension with a clear error`, async () => {
    const store = await open();
    await expect(store.add([row("bad", "x.ts", new Float32Array(3))])).rejects.toThrow(/3-dimensional.*holds 8/);
    await expect(store.searchVector(new Float32Array(3), 5)).rejects.toThrow(/3 dimensions/);
    expect(await store.count()).toBe(0);
    await store.close();
  });

  test(`${name}: rejects NaN vectors in rows and queries, naming the row`, async () => {
    const store = await open();
    const bad = axis(0);
    bad[2] = Number.NaN;
    await expect(store.add([row("ok", "x.ts", axis(1)), row("nan", "x.ts", bad)])).rejects.toThrow(/row nan .*NaN/);
    expect(await store.count()).toBe(0); // nothing of the batch was written
    await expect(store.searchVector(bad, 5)).rejects.toThrow(/query vector .*NaN/);
    await store.close();
  });
}
