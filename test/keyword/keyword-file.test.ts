// The keyword index as a loaded file keeps it: tables packed and binary-searched, postings
// read a term at a time, vector codes left in the file's buffer. A loaded index must answer
// exactly as the index that wrote it, find every table value whatever its characters, take
// changes, and report damage it meets only when a search reads it.
import { describe, expect, test } from "vitest";
import { KeywordIndex, type KeywordDoc } from "../../core/keyword/index.js";
import { FOOTER_BYTES, FORMAT_HEAD_BYTES, postingsPart } from "../../core/keyword/keyword-format.js";
import { PackedStrings, SPARSE_EVERY, sparseStarts } from "../../core/keyword/packed-strings.js";
import { Interner } from "../../core/keyword/interner.js";
import { CsrPostings, EncodedPostings, encodePostingsSteps } from "../../core/keyword/postings.js";
import { runAtOnce, runInSlices, type Steps } from "../../core/yield.js";
import { keywordFileBuffer } from "../../core/keyword/vector-codes.js";

const enc = new TextEncoder();

function doc(id: string, text: string, filePath: string, extra: Partial<KeywordDoc> = {}): KeywordDoc {
  return { id, text, filePath, language: "typescript", kind: "function", symbol: "", ...extra };
}

/** Paths whose UTF-8 byte order and JavaScript string order disagree (astral against U+E000–U+FFFF). */
const awkwardPaths = ["src/\u{1F600}.ts", "src/\uFFFD.ts", "src/\uE000x.ts", "src/é.ts", "src/a.ts", "lib/Z.ts"];

function corpus(): KeywordDoc[] {
  const vector = (i: number) => Float32Array.from({ length: 16 }, (_, k) => Math.sin(i * 7 + k));
  return awkwardPaths.flatMap((p, i) => [
    doc(`${i}-a`, `parseConfig loads settings ${i} from ${p}`, p, { symbol: "parseConfig", vector: vector(i) }),
    doc(`${i}-b`, `renderWidget draws widget ${i}`, p, { kind: i % 2 ? "class" : "function", language: i % 3 ? "typescript" : "python", vector: vector(i + 50) }),
  ]);
}

describe("a loaded keyword index", () => {
  test("answers searches, filters, file scores and vector searches exactly as the index that wrote it", () => {
    const written = new KeywordIndex();
    written.add(corpus());
    const loaded = KeywordIndex.deserialize(written.serialize());
    for (const q of ["parseConfig", "widget draws", "settings 3", "src"]) {
      expect(loaded.search(q, 20), q).toEqual(written.search(q, 20));
      expect(loaded.search(q, 20, { pathPrefixes: ["src/"] }), q).toEqual(written.search(q, 20, { pathPrefixes: ["src/"] }));
      expect(loaded.search(q, 20, { languages: ["python"], kinds: ["class"] }), q).toEqual(written.search(q, 20, { languages: ["python"], kinds: ["class"] }));
      expect(loaded.fileScores(q, awkwardPaths), q).toEqual(written.fileScores(q, awkwardPaths));
    }
    const q = Float32Array.from({ length: 16 }, (_, k) => Math.sin(3 * 7 + k));
    expect(loaded.searchVector(q, 5)).toEqual(written.searchVector(q, 5));
    expect(loaded.searchVector(q, 1)[0].id).toBe("3-a");
    // Path prefixes, as a loaded index tests them (ranges of its sorted paths) and as written.
    for (const pathPrefixes of [["src/"], ["lib"], ["./src\\"], ["src/\u{1F600}"], ["src/\uE000", "lib/Z.ts"], ["nowhere/"], ["."], ["zzz", "a"]]) {
      const filter = { pathPrefixes };
      expect(loaded.search("parseConfig", 20, filter), pathPrefixes.join()).toEqual(written.search("parseConfig", 20, filter));
      expect(loaded.searchVector(q, 20, filter), pathPrefixes.join()).toEqual(written.searchVector(q, 20, filter));
    }
    expect(loaded.search("parseConfig", 20, { pathPrefixes: ["src/"] })).toHaveLength(awkwardPaths.length - 1);
  });

  test("finds files by path whatever their characters, and removes them", () => {
    const written = new KeywordIndex();
    written.add(corpus());
    const loaded = KeywordIndex.deserialize(written.serialize());
    for (const p of awkwardPaths) expect(loaded.fileScores("parseConfig", [p]).get(p), p).toBeGreaterThan(0);
    loaded.removeFilePaths(["src/\u{1F600}.ts", "src/\uE000x.ts"]);
    const left = loaded.search("parseConfig", 20).map((h) => h.id);
    expect(left).toHaveLength(awkwardPaths.length - 2);
    expect(left).not.toContain("0-a");
    expect(left).not.toContain("2-a");
  });

  test("takes additions and removals, and writes them back, like an index built fresh", () => {
    const docs = corpus();
    const loaded = KeywordIndex.deserialize(
      (() => {
        const w = new KeywordIndex();
        w.add(docs);
        return w.serialize();
      })(),
    );
    const extra = [doc("n1", "parseConfig again in a new file", "src/new.ts", { vector: Float32Array.from({ length: 16 }, (_, k) => k) })];
    loaded.removeIds(["1-a", "4-b"]);
    loaded.add(extra);
    const fresh = new KeywordIndex();
    fresh.add([...docs.filter((d) => d.id !== "1-a" && d.id !== "4-b"), ...extra]);
    const again = KeywordIndex.deserialize(loaded.serialize());
    for (const q of ["parseConfig", "widget", "new file"]) {
      expect(loaded.search(q, 20), q).toEqual(fresh.search(q, 20));
      expect(again.search(q, 20), q).toEqual(fresh.search(q, 20));
    }
    expect(new Set(again.ids())).toEqual(new Set(fresh.ids()));
  });

  test("a document re-added to a loaded index replaces the old one, also twice in one batch", () => {
    const docs = corpus();
    const written = new KeywordIndex();
    written.add(docs);
    const loaded = KeywordIndex.deserialize(written.serialize());
    const edited = doc("2-a", "zebraStripes replaced the text", docs[4].filePath);
    loaded.add([edited, { ...edited, text: "zebraStripes final text" }]);
    loaded.removeIds(["5-b", "5-b", "no-such-id"]);
    expect(loaded.search("zebraStripes", 5).map((h) => h.id)).toEqual(["2-a"]);
    expect(loaded.search("final", 5).map((h) => h.id)).toEqual(["2-a"]);
    expect(loaded.search("settings 2", 20).map((h) => h.id)).not.toContain("2-a");
    expect(loaded.size).toBe(docs.length - 1);
    const fresh = new KeywordIndex();
    fresh.add([...docs.filter((d) => d.id !== "2-a" && d.id !== "5-b"), { ...edited, text: "zebraStripes final text" }]);
    for (const q of ["parseConfig", "widget", "zebraStripes"]) expect(KeywordIndex.deserialize(loaded.serialize()).search(q, 20), q).toEqual(fresh.search(q, 20));
    expect(new Set(loaded.ids())).toEqual(new Set(fresh.ids()));
  });

  test("reads from a Node Buffer that shares its memory with other data", () => {
    const written = new KeywordIndex();
    written.add(corpus());
    const bytes = written.serialize();
    // What readFileSync gives, at an odd offset inside a larger allocation.
    const inside = Buffer.concat([Buffer.alloc(3, 7), Buffer.from(bytes), Buffer.alloc(5, 9)]).subarray(3, 3 + bytes.length);
    const loaded = KeywordIndex.deserialize(inside);
    const q = Float32Array.from({ length: 16 }, (_, k) => Math.sin(4 * 7 + k));
    expect(loaded.searchVector(q, 3)).toEqual(written.searchVector(q, 3));
    expect(loaded.search("renderWidget", 5)).toEqual(written.search("renderWidget", 5));
  });
});

describe("a snapshot written in slices", () => {
  const hex = (i: number) => i.toString(16).padStart(32, "0");
  const vector = (i: number) => Float32Array.from({ length: 16 }, (_, k) => Math.cos(i * 3 + k));
  // Past one step of every long loop: 20k terms of their own, 6k documents.
  const docs = Array.from({ length: 6000 }, (_, i) => doc(hex(i), `handler${i} term${3 * i} term${3 * i + 1} term${3 * i + 2} shared words ${i % 50}`, `src/m${i % 400}/f${i % 900}.ts`, { vector: vector(i) }));
  const loadedCopy = (bytes: Uint8Array) => {
    const into = keywordFileBuffer(bytes.length);
    into.set(bytes);
    return KeywordIndex.deserialize(into);
  };

  test("holds the same bytes as one written at once, and searches between its steps see the index before or after the merge", async () => {
    const file = (() => {
      const built = new KeywordIndex();
      built.add(docs);
      return built.serialize();
    })();
    // Under the 1,000 removals that merge at once: the snapshot merges, in steps.
    const removed = docs.filter((_, i) => i % 7 === 0).map((d) => d.id);
    const atOnce = loadedCopy(file);
    atOnce.removeIds(removed);
    const inSlices = loadedCopy(file);
    inSlices.removeIds(removed);
    const queries = ["handler42 shared", "term300 words 7", "handler5999"];
    const before = queries.map((q) => inSlices.search(q, 10));
    const expected = atOnce.serialize();
    const after = queries.map((q) => atOnce.search(q, 10));

    const pieces: Uint8Array[] = [];
    let searches = 0;
    const neither: string[] = []; // queries answered by half of a merge
    let writing = true;
    const searchMeanwhile = () => {
      if (!writing) return;
      queries.forEach((q, i) => {
        const hits = JSON.stringify(inSlices.search(q, 10));
        if (hits !== JSON.stringify(before[i]) && hits !== JSON.stringify(after[i])) neither.push(q);
      });
      searches++;
      setImmediate(searchMeanwhile);
    };
    setImmediate(searchMeanwhile);
    await inSlices.serializeToInSlices((piece) => pieces.push(piece.slice()), 0);
    writing = false;
    expect(searches).toBeGreaterThan(5);
    expect(neither).toEqual([]);
    expect(Buffer.concat(pieces).equals(Buffer.from(expected))).toBe(true);
    expect(queries.map((q) => inSlices.search(q, 10))).toEqual(after);
  });

  test("runAtOnce runs every step before anything else; runInSlices lets the event loop turn between them", async () => {
    const order: string[] = [];
    function* steps(): Steps<number> {
      for (let i = 0; i < 3; i++) {
        order.push(`step ${i}`);
        yield;
      }
      return 7;
    }
    setImmediate(() => order.push("other work"));
    expect(runAtOnce(steps())).toBe(7);
    expect(order).toEqual(["step 0", "step 1", "step 2"]);
    order.length = 0;
    const ticks = setInterval(() => order.push("other work"), 0);
    expect(await runInSlices(steps(), 0)).toBe(7);
    clearInterval(ticks);
    expect(order.indexOf("other work")).toBeGreaterThan(0);
    expect(order.indexOf("other work")).toBeLessThan(order.indexOf("step 2"));
  });
});

describe("an index read into the vector kernel's memory", () => {
  // Hash-like components: no two rows alike.
  const vector = (i: number) => Float32Array.from({ length: 32 }, (_, k) => (Math.sin((i + 1) * 12.9898 + (k + 1) * 78.233) * 43758.5453) % 1);
  const docs = Array.from({ length: 300 }, (_, i) => doc(`d${i}`, `chunk number ${i}`, `src/f${i % 17}.ts`, { vector: vector(i) }));

  function loadedInPlace(index: KeywordIndex): KeywordIndex {
    const bytes = index.serialize();
    const memory = keywordFileBuffer(bytes.length);
    memory.set(bytes);
    return KeywordIndex.deserialize(memory);
  }

  test("scans the file's codes where they lie, adds rows after them, and moves them out at a merge", () => {
    const written = new KeywordIndex();
    written.add(docs);
    const loaded = loadedInPlace(written);
    for (const i of [0, 150, 299]) expect(loaded.searchVector(vector(i), 5), String(i)).toEqual(written.searchVector(vector(i), 5));

    // Additions go into the room after the file's codes; removals and a merge renumber the
    // rows and move them out of the file's memory; more additions then grow them.
    const extra = (from: number, n: number) => Array.from({ length: n }, (_, i) => doc(`e${from + i}`, `extra ${from + i}`, "src/extra.ts", { vector: vector(1000 + from + i) }));
    for (const index of [written, loaded]) index.add(extra(0, 400));
    for (const i of [5, 1000, 1399]) expect(loaded.searchVector(vector(i), 5), String(i)).toEqual(written.searchVector(vector(i), 5));
    for (const index of [written, loaded]) {
      index.removeIds(docs.slice(0, 120).map((d) => d.id));
      index.merge();
      index.add(extra(400, 400));
    }
    for (const i of [200, 1000, 1799]) expect(loaded.searchVector(vector(i), 5), String(i)).toEqual(written.searchVector(vector(i), 5));
    expect(loaded.searchVector(vector(1799), 1)[0].id).toBe("e799");
    expect(KeywordIndex.deserialize(loaded.serialize()).searchVector(vector(200), 5)).toEqual(written.searchVector(vector(200), 5));
  });
});

describe("a loaded table of values (interner)", () => {
  test("looks each value up by its number whether it was decoded before or not, and misses what it lacks", () => {
    const values = Array.from({ length: 3000 }, (_, i) => `src/f${String(i).padStart(5, "0")}.ts`);
    const table = Interner.loaded(PackedStrings.fromBlock(enc.encode(values.join("\0")), values.length));
    expect(table.value(1234)).toBe(values[1234]); // decoded first (a hit's path)
    for (const i of [0, 1234, 1235, 2999]) expect(table.lookup(values[i]), values[i]).toBe(i);
    expect(table.lookup("src/f01234.tsx")).toBeUndefined();
    expect(table.lookup("a")).toBeUndefined();
    // a value added afterwards: every value keeps its number, the new one gets the next
    expect(table.intern("zz/new.ts")).toBe(3000);
    expect(table.lookup(values[1234])).toBe(1234);
    expect(table.lookup("zz/new.ts")).toBe(3000);
  });

  test("takes new values after its own without decoding itself, and filters and lists them with the rest", () => {
    const values = Array.from({ length: 3000 }, (_, i) => `src/f${String(i).padStart(5, "0")}.ts`);
    const table = Interner.loaded(PackedStrings.fromBlock(enc.encode(values.join("\0")), values.length));
    expect(table.intern("lib/new.ts")).toBe(3000);
    expect(table.intern("src/f9.ts")).toBe(3001);
    expect(table.intern("lib/new.ts")).toBe(3000); // known: the same number
    expect(table.intern(values[42])).toBe(42);
    expect(table.size).toBe(3002);
    expect([table.value(3000), table.value(3001), table.value(7)]).toEqual(["lib/new.ts", "src/f9.ts", values[7]]);
    expect(table.lookup("src/f9.ts")).toBe(3001);

    const matching = (prefixes: string[]) => {
      const ranges = table.prefixRanges(prefixes);
      expect(ranges).not.toBeNull();
      return Array.from({ length: table.size }, (_, n) => n).filter((n) => ranges!.some(([from, to]) => n >= from && n < to));
    };
    expect(matching(["lib/"])).toEqual([3000]);
    expect(matching(["src/f0299"])).toEqual([2990, 2991, 2992, 2993, 2994, 2995, 2996, 2997, 2998, 2999]);
    expect(matching(["src/f9", "lib/"])).toEqual([3000, 3001]);

    expect(table.values()).toEqual([...values, "lib/new.ts", "src/f9.ts"]);
    expect(table.prefixRanges(["src/"])).toBeNull(); // a plain list now: the caller tests each path
    expect(table.intern("lib/other.ts")).toBe(3002);
    expect(table.lookup("src/f9.ts")).toBe(3001);
  });
});

describe("a loaded index of many files, added to", () => {
  test("finds and filters the documents of a new file as the index that wrote it does, and writes them out", () => {
    const many = Array.from({ length: 1500 }, (_, i) => doc(`m${i}`, `module ${i} handles topic${i % 13}`, `pkg/m${String(i).padStart(4, "0")}.ts`));
    const written = new KeywordIndex();
    written.add(many);
    const loaded = KeywordIndex.deserialize(written.serialize());
    const fresh = [doc("n1", "retry budget handles topic3", "lib/retry.ts"), doc("n2", "retry budget again", "pkg/m0007b.ts")];
    for (const index of [written, loaded]) index.add(fresh);
    for (const filter of [undefined, { pathPrefixes: ["lib/"] }, { pathPrefixes: ["pkg/m000"] }, { pathPrefixes: ["lib/", "pkg/m0007"] }]) {
      for (const q of ["retry budget", "topic3"]) expect(loaded.search(q, 20, filter), `${q} ${JSON.stringify(filter)}`).toEqual(written.search(q, 20, filter));
    }
    expect(loaded.search("retry", 5, { pathPrefixes: ["lib/"] }).map((h) => h.filePath)).toEqual(["lib/retry.ts"]);
    const again = KeywordIndex.deserialize(loaded.serialize());
    expect(again.search("retry budget", 5)).toEqual(written.search("retry budget", 5));
    expect(again.search("retry", 5, { pathPrefixes: ["pkg/"] }).map((h) => h.filePath)).toEqual(["pkg/m0007b.ts"]);
  });
});

describe("packed strings", () => {
  test("decode one at a time or all at once, and count what the block holds", () => {
    const values = ["", "b", "\u{1F600}", "zé"];
    const table = PackedStrings.fromBlock(enc.encode(values.join("\0")), values.length);
    expect(values.map((_, i) => table.get(i))).toEqual(values);
    expect(table.toArray()).toEqual(values);
    expect(() => PackedStrings.fromBlock(enc.encode("a\0b"), 3)).toThrow(/expected 3 strings, found 2/);
    expect(() => PackedStrings.fromBlock(enc.encode("a\0b\0c"), 2)).toThrow(/expected 2 strings/);
    expect(PackedStrings.fromBlock(new Uint8Array(0), 0).length).toBe(0);
  });

  test("all at once, a block far past one decoding slice comes back whole, multi-byte characters and empty strings included", () => {
    // ~1.3 MB: the decode is cut into slices at NULs, never inside a character
    const values = Array.from({ length: 60_000 }, (_, i) => (i % 7 === 0 ? "" : `term\u00e9\u{1F600}${i}`));
    values.push("");
    const table = PackedStrings.fromBlock(enc.encode(values.join("\0")), values.length);
    expect(table.toArray()).toEqual(values);
  });

  test("know JavaScript string order where UTF-8 byte order says otherwise", () => {
    const sorted = ["a", "\u{1F600}", "\uFFFD"]; // JS order: the surrogate pair sorts below U+FFFD
    expect(PackedStrings.fromBlock(enc.encode(sorted.join("\0")), 3).isStrictlySorted()).toBe(true);
    const reversed = ["a", "\uFFFD", "\u{1F600}"];
    expect(PackedStrings.fromBlock(enc.encode(reversed.join("\0")), 3).isStrictlySorted()).toBe(false);
    expect(PackedStrings.fromBlock(enc.encode("a\0a"), 2).isStrictlySorted()).toBe(false);
  });
});

describe("packed strings with group starts (format 8)", () => {
  /** Sorted strings in JavaScript order, with multi-byte and awkward characters, `n` of them. */
  function sortedValues(n: number): string[] {
    const chars = ["a", "é", "\u{1F600}", "\uFFFD", "\uE000", "z", "_", "0"];
    const out = new Set<string>();
    for (let i = 0; out.size < n; i++) out.add(`${chars[i % chars.length]}${i.toString(36)}${chars[(i * 7) % chars.length]}`);
    return [...out].sort();
  }

  function table(values: string[], inOrder = true): PackedStrings {
    const block = enc.encode(values.join("\0"));
    return PackedStrings.fromSparse(block, values.length, sparseStarts(block, values.length), inOrder);
  }

  test("give every string, in or across groups, whatever the table's size", () => {
    for (const n of [0, 1, 2, SPARSE_EVERY - 1, SPARSE_EVERY, SPARSE_EVERY + 1, 3 * SPARSE_EVERY + 5]) {
      const values = sortedValues(n);
      const t = table(values);
      expect(t.length, String(n)).toBe(n);
      // read back to front: each group is found on its own, not by reading the ones before it
      for (let i = n - 1; i >= 0; i--) expect(t.get(i), `${n}: ${i}`).toBe(values[i]);
      expect(table(values).toArray()).toEqual(values);
      if (n > 0) expect(table(values).positionsOf([values[n - 1], "missing"])).toEqual(new Map([[values[n - 1], n - 1]]));
    }
    // unsorted tables (text ids) are read alike, without order checks
    const ids = ["zeta", "alpha", "", "mid"];
    expect(ids.map((_, i) => table(ids, false).get(i))).toEqual(ids);
  });

  test("find each string by value, in or across groups, and miss what the table lacks, in JavaScript's string order", () => {
    for (const n of [0, 1, 2, SPARSE_EVERY, SPARSE_EVERY + 1, 3 * SPARSE_EVERY + 5]) {
      const values = sortedValues(n);
      const t = table(values);
      values.forEach((v, i) => expect(t.find(v), `${n}: ${i}`).toBe(i));
      // every value with a character more or one less, and values before all and after all
      for (const v of values) {
        if (!values.includes(`${v}!`)) expect(t.find(`${v}!`)).toBe(-1);
        if (v.length > 1 && !values.includes(v.slice(0, -1))) expect(t.find(v.slice(0, -1))).toBe(-1);
      }
      expect(t.find("")).toBe(values.indexOf(""));
      expect(t.find("\u{10FFFF}\u{10FFFF}")).toBe(-1);
      // the same table read from a full scan of its block
      const scanned = PackedStrings.fromBlock(enc.encode(values.join("\0")), values.length);
      values.forEach((v, i) => expect(scanned.find(v)).toBe(i));
    }
    // U+FFFD sorts after a surrogate pair in JavaScript, before it in UTF-8
    const awkward = ["a", "\u{1F600}", "\uE000", "\uFFFD"];
    awkward.forEach((v, i) => expect(table(awkward).find(v), v).toBe(i));
  });

  test("refuse a missing group start on load, and starts off string boundaries or groups out of order when a lookup reads them", () => {
    const values = sortedValues(3 * SPARSE_EVERY);
    const block = enc.encode(values.join("\0"));
    const good = sparseStarts(block, values.length);
    expect(() => PackedStrings.fromSparse(block, values.length, good.subarray(0, 4), true)).toThrow(/group starts/);
    // group 1's start one byte into its first string
    const shifted = good.slice();
    new DataView(shifted.buffer).setUint32(4, new DataView(good.buffer).getUint32(4, true) + 1, true);
    const offBoundary = PackedStrings.fromSparse(block, values.length, shifted, true);
    expect(offBoundary.get(2 * SPARSE_EVERY + 1)).toBe(values[2 * SPARSE_EVERY + 1]); // group 2 is sound
    expect(() => offBoundary.get(SPARSE_EVERY)).toThrow(/keyword index data is corrupt.*group starts/);
    // group 0's ends where group 1's (misplaced) start says
    expect(() => offBoundary.get(3)).toThrow(/corrupt/);
    // two groups' first strings swapped: each group is in order, the groups are not
    const swapped = [...values];
    [swapped[0], swapped[SPARSE_EVERY]] = [swapped[SPARSE_EVERY], swapped[0]];
    const swappedBlock = enc.encode(swapped.join("\0"));
    const outOfOrder = PackedStrings.fromSparse(swappedBlock, swapped.length, sparseStarts(swappedBlock, swapped.length), true);
    expect(outOfOrder.get(2 * SPARSE_EVERY + 1)).toBe(values[2 * SPARSE_EVERY + 1]);
    expect(() => outOfOrder.get(SPARSE_EVERY + 1)).toThrow(/corrupt.*out of order/);
    expect(() => outOfOrder.get(1)).toThrow(/corrupt.*out of order/);
  });

  test("report strings out of order within a group as damage when a lookup reads that group, and only then", () => {
    const values = sortedValues(3 * SPARSE_EVERY);
    const damaged = [...values];
    [damaged[SPARSE_EVERY + 3], damaged[SPARSE_EVERY + 4]] = [damaged[SPARSE_EVERY + 4], damaged[SPARSE_EVERY + 3]];
    const t = table(damaged);
    expect(t.get(5)).toBe(values[5]); // group 0 is sound
    expect(() => t.get(SPARSE_EVERY + 10)).toThrow(/keyword index data is corrupt.*out of order/);
    expect(() => t.get(SPARSE_EVERY + 10)).toThrow(/corrupt/); // and stays so
    // a group's last string after the next group's first
    const late = [...values];
    [late[2 * SPARSE_EVERY - 1], late[2 * SPARSE_EVERY]] = [late[2 * SPARSE_EVERY], late[2 * SPARSE_EVERY - 1]];
    expect(() => table(late).get(SPARSE_EVERY + 1)).toThrow(/corrupt/);
    // a string boundary missing inside a group
    const block = enc.encode(values.join("\0"));
    const starts = sparseStarts(block, values.length);
    const joined = block.slice();
    joined[joined.indexOf(0, new DataView(starts.buffer).getUint32(4, true)) ] = 0x61;
    expect(() => PackedStrings.fromSparse(joined, values.length, starts, true).get(SPARSE_EVERY + 2)).toThrow(/corrupt.*boundaries/);
  });
});

describe("a format 9 file loaded without its postings", () => {
  function indexOf(n: number): KeywordIndex {
    const index = new KeywordIndex();
    index.add(
      Array.from({ length: n }, (_, i) =>
        doc(`d${i}`, `${["parse", "render", "retry"][i % 3]}Config handles case ${i} of ${["alpha", "beta", "gamma", "delta"][i % 4]} topic${i % 17}`, `src/m${i % 9}/f${i}.ts`, {
          vector: Float32Array.from({ length: 16 }, (_, k) => Math.cos(i * 3 + k)),
        }),
      ),
    );
    return index;
  }

  test("answers as the whole file does, bringing in only the postings its searches read", () => {
    const written = indexOf(400);
    const file = written.serialize();
    expect(file[4]).toBe(9);
    const part = postingsPart(file.subarray(0, FORMAT_HEAD_BYTES), file.subarray(file.length - FOOTER_BYTES), file.length)!;
    expect(part.start).toBeGreaterThan(FORMAT_HEAD_BYTES);
    expect(part.end).toBeLessThan(file.length - FOOTER_BYTES);
    // The file as a loader has it: everything but the postings part, which ensure() copies in.
    const bytes = file.slice();
    bytes.fill(0, part.start, part.end);
    const asked: Array<[number, number]> = [];
    const ensure = (start: number, end: number) => {
      asked.push([start, end]);
      bytes.set(file.subarray(start, end), start);
    };
    const loaded = KeywordIndex.deserialize(bytes, ensure);
    expect(asked).toEqual([]); // nothing read until a search asks
    for (const q of ["parseConfig alpha", "topic5 retry", "case 17"]) {
      expect(loaded.search(q, 10), q).toEqual(written.search(q, 10));
      expect(loaded.fileScores(q, ["src/m1/f1.ts", "src/m5/f5.ts"]), q).toEqual(written.fileScores(q, ["src/m1/f1.ts", "src/m5/f5.ts"]));
    }
    expect(asked.length).toBeGreaterThan(0);
    for (const [start, end] of asked) expect(start >= part.start && end <= part.end, `${start}-${end}`).toBe(true);
    const broughtIn = asked.reduce((sum, [s, e]) => sum + (e - s), 0);
    expect(broughtIn).toBeLessThan((part.end - part.start) / 2);
    const q = Float32Array.from({ length: 16 }, (_, k) => Math.cos(30 + k));
    expect(loaded.searchVector(q, 3)).toEqual(written.searchVector(q, 3));
    // a change that rebuilds the postings brings in the rest in one read, not again term by
    // term, and writes the same index back
    const askedBefore = asked.length;
    loaded.removeIds(["d3"]);
    written.removeIds(["d3"]);
    const rewritten = loaded.serialize();
    expect(asked.length - askedBefore).toBe(1);
    expect(KeywordIndex.deserialize(rewritten).search("parseConfig alpha", 10)).toEqual(KeywordIndex.deserialize(written.serialize()).search("parseConfig alpha", 10));
  });

  test("reports a damaged posting list as damage when a search reads it", () => {
    const file = indexOf(60).serialize();
    const part = postingsPart(file.subarray(0, FORMAT_HEAD_BYTES), file.subarray(file.length - FOOTER_BYTES), file.length)!;
    const damaged = file.slice();
    damaged.fill(0xff, part.end - 40, part.end); // the last terms' postings: varints that never end
    const loaded = KeywordIndex.deserialize(damaged); // loads: the postings are checked as read
    expect(loaded.search("alpha", 5).length).toBeGreaterThan(0); // an early term's list is sound
    const words = ["parse", "render", "retry", "config", "handles", "case", "beta", "gamma", "delta", ...Array.from({ length: 17 }, (_, i) => `topic${i}`)];
    expect(() => words.forEach((w) => loaded.search(w, 5))).toThrow(/keyword index data is corrupt/);
    expect(() => KeywordIndex.deserialize(damaged).serialize()).toThrow(/keyword index data is corrupt/);
    expect(() => KeywordIndex.deserialize(file.subarray(0, file.length - 1))).toThrow(/corrupt/);
  });
});

describe("stored postings", () => {
  const csr = new CsrPostings(2, Uint32Array.from([0, 3, 4]), Uint32Array.from([1, 5, 300, 2]), Uint8Array.from([1, 2, 255, 4]));

  test("read back term by term and whole", () => {
    const { bytes, startTable } = runAtOnce(encodePostingsSteps(csr, [0, 1]));
    const stored = EncodedPostings.from(bytes, startTable, 2, 301, 4);
    const seen: number[][] = [];
    stored.forEach(0, (d, tf) => seen.push([d, tf]));
    expect(seen).toEqual([
      [1, 1],
      [5, 2],
      [300, 255],
    ]);
    expect(stored.count(1)).toBe(1);
    const back = runAtOnce(stored.toCsrSteps());
    expect(Array.from(back.offsets)).toEqual([0, 3, 4]);
    expect(Array.from(back.docs)).toEqual([1, 5, 300, 2]);
    expect(Array.from(back.tfs)).toEqual([1, 2, 255, 4]);
  });

  test("a damaged list is reported as damage when a search reads it", () => {
    const { bytes, startTable } = runAtOnce(encodePostingsSteps(csr, [0, 1]));
    // 300 documents: the third posting now points past the last one.
    expect(() => EncodedPostings.from(bytes, startTable, 2, 300, 4).forEach(0, () => undefined)).toThrow(/keyword index data is corrupt.*re-index/);
    const cut = bytes.slice();
    cut[0] = 9; // term 0 claims nine postings
    expect(() => EncodedPostings.from(cut, startTable, 2, 301, 4).forEach(0, () => undefined)).toThrow(/corrupt/);
    expect(() => EncodedPostings.from(bytes, startTable.subarray(0, 8), 2, 301, 4)).toThrow(/posting table/);
  });
});
