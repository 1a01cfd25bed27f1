// Keyword files of earlier formats (6: one-byte vector codes, ids as text; 7: postings amid the
// file, string tables without group starts; 8: each document's numbers as varints) are still read, so an upgrade re-indexes nothing:
// each answers as an index built now from the same documents, and what it writes next is the
// current format.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeywordIndex, type KeywordDoc } from "../../core/keyword/index.js";

// The documents test/fixtures/keyword/format-<n>.bin were written from (each by the KeywordIndex
// of the last release writing that format): hex ids and a few other ids, some documents
// without a vector.
function docs(): KeywordDoc[] {
  const out: KeywordDoc[] = [];
  for (let i = 0; i < 60; i++) {
    const id = i % 10 === 9 ? `memory-${i}` : createHash("md5").update(`chunk ${i}`).digest("hex");
    const vector = i % 7 === 6 ? undefined : Array.from({ length: 64 }, (_, d) => Math.sin(i * 0.7 + d * 1.3) + (d === i % 64 ? 2 : 0));
    out.push({
      id,
      text: `function handler${i}(request) { return parse${i % 5}Config(request.body); } // topic ${["alpha", "beta", "gamma"][i % 3]}`,
      filePath: `src/m${i % 6}/f${i}.ts`,
      language: i % 4 === 0 ? "javascript" : "typescript",
      kind: "function",
      symbol: `handler${i}`,
      vector,
    });
  }
  return out;
}

describe.each([6, 7, 8])("a format %i keyword file", (format) => {
  const fixture = readFileSync(join(import.meta.dirname, "..", "fixtures", "keyword", `format-${format}.bin`));
  const old = KeywordIndex.deserialize(new Uint8Array(fixture));
  const fresh = new KeywordIndex();
  fresh.add(docs());

  it("is read, and its keyword searches answer as a fresh index's", () => {
    expect(fixture[4]).toBe(format);
    for (const q of ["parse3Config request", "topic beta handler", "handler42"]) expect(old.search(q, 10)).toEqual(fresh.search(q, 10));
    expect(old.search("handler19", 5)[0].id).toBe("memory-19");
  });

  it("finds each document among the nearest to its own vector, with the fresh index's scores within 0.02", () => {
    for (const d of docs().filter((x) => x.vector)) {
      const hits = old.searchVector(d.vector!, 3);
      expect(hits.map((h) => h.id)).toContain(d.id);
      // (format 6: requantised from one-byte codes) the same scores as a fresh index's within rounding (near ties may swap)
      const fresher = new Map(fresh.searchVector(d.vector!, 60).map((h) => [h.id, h.score]));
      for (const h of hits) expect(Math.abs(h.score - fresher.get(h.id)!)).toBeLessThan(0.02);
    }
    expect(old.vectorOf(docs()[6].id)).toBeNull();
  });

  it("is written back in the current format, which loads to the same answers", () => {
    const written = old.serialize();
    expect(written[4]).toBe(9);
    if (format === 6) expect(written.length).toBeLessThan(fixture.length); // half the vector bytes
    const again = KeywordIndex.deserialize(written);
    expect(again.search("topic gamma", 10)).toEqual(old.search("topic gamma", 10));
    expect(again.searchVector(docs()[12].vector!, 5)).toEqual(old.searchVector(docs()[12].vector!, 5));
  });
});
