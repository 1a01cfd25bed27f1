// Vector search over the 4-bit codes the keyword index keeps: the answers of exact cosine over
// the float vectors (but for near-ties), with the WebAssembly SIMD loop and with the plain one,
// through filters, removals, merges and the binary form.
import { describe, expect, it } from "vitest";
import { KeywordIndex, type KeywordDoc } from "../../core/keyword/index.js";
import { rowBytes, VectorCodes } from "../../core/keyword/vector-codes.js";

/** Deterministic unit vectors (mulberry32). */
function vectors(n: number, dim: number, seed = 7): Float32Array[] {
  let a = seed;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: dim }, rand);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

function exactTop(all: Float32Array[], q: Float32Array, k: number, skip = new Set<number>()): number[] {
  return all
    .map((v, i) => [i, cosine(v, q)] as const)
    .filter(([i]) => !skip.has(i))
    .sort((x, y) => y[1] - x[1])
    .slice(0, k)
    .map(([i]) => i);
}

describe("vector codes", () => {
  for (const simd of [true, false]) {
    it(`finds the exact nearest rows, scores within 0.03 (${simd ? "SIMD" : "plain loop"}; 100 dimensions, padded)`, () => {
      const all = vectors(3000, 100);
      const codes = new VectorCodes(simd);
      all.forEach((v, i) => codes.set(i, v));
      for (const q of vectors(20, 100, 99)) {
        const hits = codes.search(q, 10, () => true);
        const exact = exactTop(all, q, 10);
        // Quantisation may swap near-ties (random vectors have many); the sets agree and each
        // score is the cosine's.
        expect(hits.map(([r]) => r).filter((r) => exact.includes(r)).length).toBeGreaterThanOrEqual(8);
        for (const [row, score] of hits) expect(Math.abs(score - Math.max(0, cosine(all[row], q)))).toBeLessThan(0.03);
      }
    });
  }

  it("keeps half a byte per dimension (rows padded to 32 dimensions), and gives the vectors back as stored", () => {
    expect([rowBytes(256), rowBytes(100), rowBytes(32), rowBytes(1)]).toEqual([128, 64, 16, 16]);
    const all = vectors(10, 256);
    const codes = new VectorCodes();
    all.forEach((v, i) => codes.set(i, v));
    expect(codes.toBytes().codes.length).toBe(10 * 128);
    const back = codes.vector(3)!;
    expect(back.length).toBe(256);
    // each dimension within half a step (max / 7 / 2) of the original
    const step = Math.max(...all[3].map(Math.abs)) / 7;
    for (let d = 0; d < 256; d++) expect(Math.abs(back[d] - all[3][d])).toBeLessThanOrEqual(step / 2 + 1e-6);
  });

  it("skips rows without a vector and rows the filter refuses", () => {
    const all = vectors(50, 32);
    const codes = new VectorCodes();
    all.forEach((v, i) => codes.set(i, i % 2 === 0 ? v : null));
    const hits = codes.search(all[3], 50, (row) => row !== 4);
    expect(hits.length).toBe(24);
    for (const [row] of hits) expect(row % 2 === 0 && row !== 4).toBe(true);
  });
});

describe("the keyword index's vector search", () => {
  // 64 dimensions fill the kernel's 16-byte rows; 100 are padded (rows copied one by one on load)
  for (const dim of [64, 100]) {
    const all = vectors(400, dim, 3);
    const doc = (i: number): KeywordDoc => ({ id: `c${i}`, text: `chunk ${i}`, filePath: i < 200 ? `src/a${i % 7}.ts` : `test/b${i}.ts`, language: "typescript", kind: "function", symbol: "", vector: all[i] });

    it(`answers by vector, honours the path filter, forgets removed documents, and survives a merge and the binary form (${dim} dimensions)`, () => {
      const index = new KeywordIndex();
      index.add(all.map((_, i) => doc(i)));
      expect(index.vectorDimension).toBe(dim);
      const q = all[123];
      expect(index.searchVector(q, 1)[0]).toMatchObject({ id: "c123" });
      expect(index.searchVector(q, 1)[0].score).toBeGreaterThan(0.99);
      for (const h of index.searchVector(q, 20, { pathPrefixes: ["test/"] })) expect(Number(h.id.slice(1))).toBeGreaterThanOrEqual(200);

      index.removeIds(all.slice(0, 150).map((_, i) => `c${i}`));
      index.merge();
      const before = index.searchVector(all[300], 10);
      expect(before.some((h) => Number(h.id.slice(1)) < 150)).toBe(false);
      const loaded = KeywordIndex.deserialize(index.serialize());
      expect(loaded.searchVector(all[300], 10)).toEqual(before);
      expect(loaded.vectorOf("c300")!.length).toBe(dim);
      expect(loaded.vectorOf("c10")).toBeNull();
      expect(Array.from(loaded.vectorOf("c300")!)).toEqual(Array.from(index.vectorOf("c300")!));
    });
  }

  it("keeps none for a keyword-only index", () => {
    const index = new KeywordIndex();
    index.add([{ id: "a", text: "alpha", filePath: "a.ts", language: "typescript", kind: "function", symbol: "" }]);
    expect(index.vectorDimension).toBe(0);
    expect(KeywordIndex.deserialize(index.serialize()).vectorDimension).toBe(0);
  });
});

describe("vector codes scanned in blocks", () => {
  it("scan more rows than one block of the kernel holds, with the same answers as the plain loop", () => {
    const all = vectors(9000, 32, 11);
    const simd = new VectorCodes(true);
    const plain = new VectorCodes(false);
    all.forEach((v, i) => {
      simd.set(i, v);
      plain.set(i, v);
    });
    for (const q of [all[17], all[4100], all[8999]]) {
      const a = simd.search(q, 5, () => true);
      expect(a).toEqual(plain.search(q, 5, () => true));
      expect(a[0][0]).toBe(all.indexOf(q));
    }
  });
});
