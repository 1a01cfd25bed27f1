import { afterAll, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddingCache } from "../../core/indexing/embedding-cache.js";

const root = mkdtempSync(join(tmpdir(), "ocr-embcache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `s${n++}`);
const hash = (i: number) => i.toString(16).padStart(40, "0");
const vector = (i: number, dim: number) => Float32Array.from({ length: dim }, (_, k) => i + k / 10);

describe("EmbeddingCache", () => {
  it("gives back every flushed vector after reopening, bit for bit", () => {
    const dir = fresh();
    const cache = EmbeddingCache.open(dir, "local", "m", 6);
    for (let i = 0; i < 50; i++) cache.set(hash(i), vector(i, 6));
    cache.flush();
    const again = EmbeddingCache.open(dir, "local", "m", 6);
    expect(again.size).toBe(50);
    for (const i of [0, 7, 49]) expect(Array.from(again.get(hash(i)) ?? [])).toEqual(Array.from(vector(i, 6)));
    expect(again.get(hash(99))).toBeUndefined();
  });

  it("drops a record cut short by a killed writer, and keeps appending after it", () => {
    const dir = fresh();
    const cache = EmbeddingCache.open(dir, "local", "m", 4);
    cache.set(hash(1), vector(1, 4));
    cache.flush();
    appendFileSync(cache.file, Buffer.alloc(7)); // half a record
    const again = EmbeddingCache.open(dir, "local", "m", 4);
    expect(again.size).toBe(1);
    expect(statSync(cache.file).size).toBe(20 + 16);
    again.set(hash(2), vector(2, 4));
    again.flush();
    const third = EmbeddingCache.open(dir, "local", "m", 4);
    expect(Array.from(third.get(hash(2)) ?? [])).toEqual(Array.from(vector(2, 4)));
  });

  it("compacts to the live entries once dead ones dominate, keeping their vectors", () => {
    const dir = fresh();
    const cache = EmbeddingCache.open(dir, "local", "m", 4);
    for (let i = 0; i < 1200; i++) cache.set(hash(i), vector(i, 4));
    cache.flush();
    cache.compact(new Set([hash(5), hash(1100)]));
    expect(statSync(cache.file).size).toBe(2 * (20 + 16));
    const again = EmbeddingCache.open(dir, "local", "m", 4);
    expect(again.size).toBe(2);
    expect(Array.from(again.get(hash(1100)) ?? [])).toEqual(Array.from(vector(1100, 4)));
    expect(again.get(hash(6))).toBeUndefined();
  });

  it("is reused between passes of one process only for the same folder, model and dimension", () => {
    const dir = fresh();
    const first = EmbeddingCache.reuseOrOpen(null, dir, "local", "m", 4);
    first.set(hash(3), vector(3, 4)); // not flushed: only the kept object knows it
    expect(EmbeddingCache.reuseOrOpen(first, dir, "local", "m", 4)).toBe(first);
    expect(EmbeddingCache.reuseOrOpen(first, dir, "local", "m", 4).get(hash(3))).toBeDefined();
    expect(EmbeddingCache.reuseOrOpen(first, dir, "local", "other", 4)).not.toBe(first);
    expect(EmbeddingCache.reuseOrOpen(first, dir, "local", "m", 8)).not.toBe(first);
    expect(EmbeddingCache.reuseOrOpen(first, fresh(), "local", "m", 4)).not.toBe(first);
  });

  it("reads its file only at the first look-up, and compacts only what it has read", () => {
    const dir = fresh();
    const cache = EmbeddingCache.open(dir, "local", "m", 4);
    for (let i = 0; i < 1200; i++) cache.set(hash(i), vector(i, 4));
    cache.flush();
    const again = EmbeddingCache.open(dir, "local", "m", 4);
    expect(again.isLoaded).toBe(false);
    // appended before the first look-up, by this process or another: still found
    again.set(hash(5000), vector(5000, 4));
    again.flush();
    expect(Array.from(again.get(hash(7)) ?? [])).toEqual(Array.from(vector(7, 4)));
    expect(again.isLoaded).toBe(true);
    expect(again.size).toBe(1201);
    // compacting an unread cache must not lose the entries it has not read
    const unread = EmbeddingCache.open(dir, "local", "m", 4);
    unread.compact(new Set([hash(3), hash(5000)]));
    const after = EmbeddingCache.open(dir, "local", "m", 4);
    expect(after.size).toBe(2);
    expect(Array.from(after.get(hash(3)) ?? [])).toEqual(Array.from(vector(3, 4)));
  });

  it("lets go of its vectors above a size, and finds them again in its file", () => {
    const dir = fresh();
    const cache = EmbeddingCache.open(dir, "local", "m", 4);
    for (let i = 0; i < 100; i++) cache.set(hash(i), vector(i, 4));
    // 100 vectors of 16 bytes: kept under 2 KB, let go under 1 KB
    expect(cache.releaseAbove(2048)).toBe(false);
    expect(cache.releaseAbove(1024)).toBe(true);
    expect(cache.isLoaded).toBe(false);
    expect(cache.sizeOnDisk).toBe(100);
    expect(Array.from(cache.get(hash(42)) ?? [])).toEqual(Array.from(vector(42, 4)));
    expect(cache.size).toBe(100);
  });
});
