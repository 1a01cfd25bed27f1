import { expect, test } from "vitest";
import { ByteReader, ByteWriter } from "../../core/keyword/bytes.js";
import { KeywordIndex } from "../../core/keyword/keyword-index.js";

function writeSample(w: ByteWriter): void {
  for (let i = 0; i < 50; i++) {
    w.varint(i * 1_000_003);
    w.u8(i);
    w.block(new Uint8Array(i * 7).fill(i));
  }
  w.gapPairs(Uint32Array.from({ length: 40 }, (_, i) => i * i * 300), Uint8Array.from({ length: 40 }, (_, i) => i), 0, 40);
  w.bytes(new Uint8Array(100).fill(9));
}

test("a streaming writer with a small buffer hands on exactly the bytes a plain writer holds", () => {
  const plain = new ByteWriter(8);
  writeSample(plain);
  const whole = plain.finish();
  const pieces: Uint8Array[] = [];
  const streaming = new ByteWriter(16, (chunk) => pieces.push(chunk));
  writeSample(streaming);
  expect(streaming.length).toBe(whole.length);
  expect(streaming.finish()).toHaveLength(0);
  expect(pieces.length).toBeGreaterThan(10);
  expect(Buffer.concat(pieces).equals(Buffer.from(whole))).toBe(true);
  const r = new ByteReader(whole);
  expect([r.varint(), r.u8(), r.block().length]).toEqual([0, 0, 0]);
  expect([r.varint(), r.u8(), r.block().length]).toEqual([1_000_003, 1, 7]);
});

test("an index streamed to a sink is the bytes serialize() gives, and loads to the same answers", () => {
  const index = new KeywordIndex();
  index.add(
    Array.from({ length: 300 }, (_, i) => ({ id: `c${i}`, text: `function handler${i}(request) { return route_${i % 7}(request.body) }`, filePath: `src/m${i % 13}/h${i}.ts`, language: "typescript", kind: "function", symbol: `handler${i}`, vector: null })),
  );
  const pieces: Uint8Array[] = [];
  index.serializeTo((chunk) => pieces.push(chunk));
  const bytes = index.serialize();
  expect(Buffer.concat(pieces).equals(Buffer.from(bytes))).toBe(true);
  const loaded = KeywordIndex.deserialize(Buffer.concat(pieces));
  const hits = index.search("route 3 request", 5);
  expect(hits.length).toBe(5);
  expect(loaded.search("route 3 request", 5)).toEqual(hits);
});
