// Each document's length, path, language and kind are stored as fixed-width columns that a
// loaded index uses where they lie in the file: the narrowest width that holds the values, a
// view of the file's bytes (no copy) when aligned, a copy when not, damage named on load.
import { describe, expect, it } from "vitest";
import { ByteReader, ByteWriter } from "../../core/keyword/bytes.js";
import { readColumn, withRoom, writeColumn } from "../../core/keyword/doc-columns.js";
import { KeywordIndex, type KeywordDoc } from "../../core/keyword/index.js";

/** `values` written after `lead` bytes, as the file would hold them. */
function written(values: number[], lead = 3): Uint8Array {
  const w = new ByteWriter(16);
  for (let i = 0; i < lead; i++) w.u8(7);
  writeColumn(w, values.length, (d) => values[d]);
  return w.finish();
}

function read(bytes: Uint8Array, count: number, lead = 3, limit?: number) {
  const r = new ByteReader(bytes);
  r.pos = lead;
  const column = readColumn(r, count, limit);
  expect(r.done).toBe(true);
  return column;
}

describe("document columns", () => {
  it("take the narrowest width that holds their largest value, and read back every value", () => {
    for (const [values, Kind] of [
      [[0, 5, 255], Uint8Array],
      [[0, 256, 65_535, 3], Uint16Array],
      [[1, 65_536, 4_000_000_000], Uint32Array],
      [[], Uint8Array],
    ] as const) {
      const column = read(written([...values]), values.length);
      expect(column).toBeInstanceOf(Kind);
      expect(Array.from(column)).toEqual(values);
    }
  });

  it("are views of the file's bytes where aligned, and copies where the bytes start elsewhere", () => {
    const values = [1, 70_000, 2, 99];
    const bytes = written(values);
    const view = read(bytes, values.length);
    expect((view as Uint32Array).buffer).toBe(bytes.buffer);
    // the same file one byte further into its buffer: the values are copied, and still right
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    const copy = read(shifted, values.length);
    expect((copy as Uint32Array).buffer).not.toBe(shifted.buffer);
    expect(Array.from(copy)).toEqual(values);
  });

  it("refuse a reference outside its table, an unknown width, and a column cut short", () => {
    expect(() => read(written([0, 4, 2]), 3, 3, 4)).toThrow(/out of range/);
    expect(Array.from(read(written([0, 3, 2]), 3, 3, 4))).toEqual([0, 3, 2]);
    const bad = written([1, 2]);
    bad[3] = 3;
    expect(() => read(bad, 2)).toThrow(/width 3/);
    expect(() => read(written([1, 2, 3]).subarray(0, 5), 3)).toThrow(RangeError);
  });

  it("are copied, never written, when documents are added, and the copy grows as they come", () => {
    const bytes = written([4, 5]);
    const loaded = read(bytes, 2);
    const column = withRoom(loaded, 2, 3) as Uint32Array;
    expect(column).not.toBe(loaded);
    column[2] = 6;
    expect(Array.from(column.subarray(0, 3))).toEqual([4, 5, 6]);
    expect(Array.from(read(bytes, 2))).toEqual([4, 5]);
    // room to spare: the same copy; full: a bigger one with every value
    expect(withRoom(column, 3, 4)).toBe(column);
    const bigger = withRoom(column, 3, column.length + 1) as Uint32Array;
    expect(bigger.length).toBeGreaterThan(column.length);
    expect(Array.from(bigger.subarray(0, 3))).toEqual([4, 5, 6]);
    const plain = [1];
    expect(withRoom(plain, 1, 2)).toBe(plain);
  });

  it("serve a loaded index that then takes new documents and removals as a fresh one does", () => {
    const doc = (i: number): KeywordDoc => ({ id: `d${i}`, text: `retry${i % 3} handler for topic${i % 5}`, filePath: `src/f${i % 300}.ts`, language: i % 2 ? "typescript" : "go", kind: "function", symbol: `handle${i}` });
    const fresh = new KeywordIndex();
    fresh.add(Array.from({ length: 400 }, (_, i) => doc(i)));
    const loaded = KeywordIndex.deserialize(fresh.serialize());
    for (const index of [fresh, loaded]) {
      index.add([doc(400), doc(401), { ...doc(3), text: "replaced entirely" }]);
      index.removeIds(["d7"]);
    }
    const goOnly = { languages: ["go"] };
    for (const q of ["retry1 topic2", "replaced", "handler"]) expect(loaded.search(q, 20, goOnly)).toEqual(fresh.search(q, 20, goOnly));
    expect(loaded.search("handler", 500, goOnly).length).toBe(201);
    expect(loaded.fileScores("retry2", ["src/f5.ts", "src/f101.ts"])).toEqual(fresh.fileScores("retry2", ["src/f5.ts", "src/f101.ts"]));
  });

  it("replay several deltas as the passes that wrote them changed the index", () => {
    const doc = (i: number, text = `retry${i % 3} handler for topic${i % 5}`): KeywordDoc => ({ id: `d${i}`, text, filePath: `src/f${i % 50}.ts`, language: "typescript", kind: "function", symbol: `handle${i}` });
    const deltas = [
      // a loaded document replaced, one removed, one new
      { remove: ["d7"], add: [doc(3, "replaced entirely"), doc(200)] },
      // the new one removed again, the removed one back with other words, a loaded one removed
      { remove: ["d200", "d9"], add: [doc(7, "returned with fresh words")] },
      { remove: [], add: [doc(201, "replaced entirely once more")] },
    ];
    const fresh = new KeywordIndex();
    fresh.add(Array.from({ length: 200 }, (_, i) => doc(i)));
    const loaded = KeywordIndex.deserialize(fresh.serialize());
    for (const delta of deltas) {
      fresh.removeIds(delta.remove);
      fresh.add(delta.add);
    }
    loaded.replay(deltas);
    expect(loaded.size).toBe(fresh.size);
    for (const id of ["d3", "d7", "d9", "d200", "d201"]) expect(loaded.has(id), id).toBe(fresh.has(id));
    for (const q of ["replaced entirely", "fresh words", "retry1 topic2", "handler"]) expect(loaded.search(q, 30)).toEqual(fresh.search(q, 30));
  });
});
