import { describe, expect, test } from "vitest";
import { CsrPostings, DeltaPostings, mergePostingsSteps } from "../../core/keyword/postings.js";
import { runAtOnce } from "../../core/yield.js";

/** Term id -> [doc, tf][] in the order added: what a delta must read back. */
type Model = Map<number, Array<[number, number]>>;

function read(source: { count(t: number): number; forEach(t: number, visit: (doc: number, tf: number) => void): void }, t: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  source.forEach(t, (doc, tf) => out.push([doc, tf]));
  expect(source.count(t)).toBe(out.length);
  return out;
}

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe("DeltaPostings", () => {
  test("reads back each term's postings in the order added, however reads and additions interleave", () => {
    const next = random(7);
    const delta = new DeltaPostings();
    const model: Model = new Map();
    // Past the first allocation several times over; reads between additions regroup.
    for (let doc = 0; doc < 3000; doc++) {
      const terms = new Set(Array.from({ length: 1 + Math.floor(next() * 8) }, () => Math.floor(next() * 500)));
      for (const t of terms) {
        const tf = 1 + Math.floor(next() * 255);
        delta.push(t, doc, tf);
        model.set(t, [...(model.get(t) ?? []), [doc, tf]]);
      }
      if (doc % 700 === 0 || doc === 2999) {
        for (let t = 0; t < 520; t++) expect(read(delta, t), `term ${t} after doc ${doc}`).toEqual(model.get(t) ?? []);
      }
    }
    expect(delta.size).toBe([...model.values()].reduce((n, l) => n + l.length, 0));
  });

  test("a few postings among a big index's terms are found by term, in the order added", () => {
    const delta = new DeltaPostings();
    delta.push(900_000, 7, 1);
    delta.push(3, 7, 2);
    delta.push(900_000, 8, 3);
    delta.push(450_000, 9, 4);
    expect(read(delta, 900_000)).toEqual([
      [7, 1],
      [8, 3],
    ]);
    expect(read(delta, 3)).toEqual([[7, 2]]);
    expect(read(delta, 450_000)).toEqual([[9, 4]]);
    expect(read(delta, 450_001)).toEqual([]);
    delta.push(2, 10, 5);
    expect(read(delta, 2)).toEqual([[10, 5]]);
  });

  test("an empty delta has no postings for any term", () => {
    const delta = new DeltaPostings();
    expect(delta.size).toBe(0);
    expect(read(delta, 0)).toEqual([]);
    expect(read(delta, 12345)).toEqual([]);
  });

  test("a merge puts the base's postings before the delta's, drops removed documents and renumbers the rest", () => {
    // base: term 0 -> docs 0, 1; term 1 -> doc 1; term 2 -> none
    const base = new CsrPostings(3, Uint32Array.from([0, 2, 3, 3]), Uint32Array.from([0, 1, 1]), Uint8Array.from([5, 6, 7]));
    const delta = new DeltaPostings();
    delta.push(0, 2, 8);
    delta.push(3, 2, 9); // a term the base does not have yet
    delta.push(0, 3, 10);
    // doc 1 removed: 0 -> 0, 2 -> 1, 3 -> 2
    const merged = runAtOnce(mergePostingsSteps(base, delta, 4, Int32Array.from([0, -1, 1, 2])));
    expect(merged.termCount).toBe(4);
    expect(read(merged, 0)).toEqual([
      [0, 5],
      [1, 8],
      [2, 10],
    ]);
    expect(read(merged, 1)).toEqual([]);
    expect(read(merged, 2)).toEqual([]);
    expect(read(merged, 3)).toEqual([[1, 9]]);
  });

  test("a merge that keeps every number keeps the base's and the delta's postings as they are", () => {
    const base = new CsrPostings(3, Uint32Array.from([0, 2, 3, 3]), Uint32Array.from([0, 1, 1]), Uint8Array.from([5, 6, 7]));
    const delta = new DeltaPostings();
    delta.push(2, 2, 8);
    delta.push(0, 2, 9);
    delta.push(4, 3, 10); // past the base's terms, one term without postings between
    const merged = runAtOnce(mergePostingsSteps(base, delta, 5, null));
    expect(merged.termCount).toBe(5);
    expect(read(merged, 0)).toEqual([
      [0, 5],
      [1, 6],
      [2, 9],
    ]);
    expect(read(merged, 1)).toEqual([[1, 7]]);
    expect(read(merged, 2)).toEqual([[2, 8]]);
    expect(read(merged, 3)).toEqual([]);
    expect(read(merged, 4)).toEqual([[3, 10]]);
  });
});
