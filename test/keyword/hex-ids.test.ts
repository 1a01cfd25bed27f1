// Chunk ids kept as bytes in a keyword file must come back as the same ids, be found by value,
// and leave ids of any other shape in the text form.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { allHexIds, hexIdBytes, HexIds } from "../../core/keyword/hex-ids.js";
import { KeywordIndex, type KeywordDoc } from "../../core/keyword/index.js";

const hexId = (i: number) => createHash("md5").update(`chunk ${i}`).digest("hex");

describe("hex ids", () => {
  const ids = Array.from({ length: 5000 }, (_, i) => hexId(i));
  const table = HexIds.fromBlock(hexIdBytes(ids), ids.length);

  it("gives every id back, and all of them at once", () => {
    expect(table.length).toBe(ids.length);
    for (const i of [0, 1, 2500, 4999]) expect(table.get(i)).toBe(ids[i]);
    expect(table.toArray()).toEqual(ids);
  });

  it("finds ids by value, the first of a repeated one, and nothing for others", () => {
    const withRepeat = HexIds.fromBlock(hexIdBytes([...ids.slice(0, 10), ids[3]]), 11);
    expect(withRepeat.positionsOf([ids[3]])).toEqual(new Map([[ids[3], 3]]));
    const found = table.positionsOf([ids[7], ids[4321], hexId(99999), "not-hex", ids[7].toUpperCase()]);
    expect(found).toEqual(new Map([[ids[7], 7], [ids[4321], 4321]]));
  });

  it("keeps only lower-case 32-digit hex ids as bytes, and refuses a block of the wrong size", () => {
    expect(allHexIds(ids)).toBe(true);
    expect(allHexIds([...ids, "c1"])).toBe(false);
    expect(allHexIds([ids[0].toUpperCase()])).toBe(false);
    expect(() => HexIds.fromBlock(new Uint8Array(33), 2)).toThrow(/expected 2 ids/);
  });
});

describe("a keyword file with the indexer's ids", () => {
  const doc = (i: number, id = hexId(i)): KeywordDoc => ({ id, text: `parse config value ${i}`, filePath: `src/f${i % 9}.ts`, language: "typescript", kind: "function", symbol: "" });

  it("stores them in half the bytes, and a loaded index finds, removes and re-adds by id", () => {
    const hexIndex = new KeywordIndex();
    hexIndex.add(Array.from({ length: 300 }, (_, i) => doc(i)));
    const textIndex = new KeywordIndex();
    textIndex.add(Array.from({ length: 300 }, (_, i) => doc(i, `id-${hexId(i)}`)));
    expect(textIndex.serialize().length - hexIndex.serialize().length).toBeGreaterThanOrEqual(300 * 16);

    const loaded = KeywordIndex.deserialize(hexIndex.serialize());
    expect(loaded.search("config value 42", 300).map((h) => h.id)).toContain(hexId(42));
    loaded.removeIds([hexId(42)]);
    expect(loaded.search("config value 42", 300).map((h) => h.id)).not.toContain(hexId(42));
    loaded.add([doc(42)]);
    const again = KeywordIndex.deserialize(loaded.serialize());
    expect(again.search("config value 42", 300).map((h) => h.id)).toContain(hexId(42));
    // ids of another shape are kept as text
    expect(KeywordIndex.deserialize(textIndex.serialize()).search("config value 7", 300).map((h) => h.id)).toContain(`id-${hexId(7)}`);
  });
});
