// A file read on demand must hold exactly the file's bytes wherever it was asked for, read no
// more than the blocks asked for while little is asked, and end up whole (and let go of the
// file) once much of it is.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileIntoOnDemand, readFileInto, readFileIntoAsync } from "../../core/files/read-into.js";

const dir = mkdtempSync(join(tmpdir(), "rag-read-into-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of random bytes (none of them zero-filled by chance over a whole block). */
function fileOf(size: number): { path: string; content: Buffer } {
  const content = randomBytes(size);
  const path = join(dir, `f${size}-${Math.random().toString(36).slice(2)}.bin`);
  writeFileSync(path, content);
  return { path, content };
}

const zeroed = (size: number) => new Uint8Array(size);
const BLOCK = 16 * 1024;

describe("fileIntoOnDemand", () => {
  it("reads only the blocks asked for, with the file's bytes in place", () => {
    const { path, content } = fileOf(64 * BLOCK + 123);
    const file = fileIntoOnDemand(path, zeroed);
    expect(file.bytes.length).toBe(content.length);
    expect(file.bytes.every((b) => b === 0)).toBe(true);

    expect(file.ensure(BLOCK + 10, BLOCK + 20)).toBe(false);
    expect(Buffer.from(file.bytes.subarray(BLOCK, 2 * BLOCK)).equals(content.subarray(BLOCK, 2 * BLOCK))).toBe(true);
    // nothing else was read
    expect(file.bytes.subarray(0, BLOCK).every((b) => b === 0)).toBe(true);
    expect(file.bytes.subarray(2 * BLOCK).every((b) => b === 0)).toBe(true);

    // a range over a block boundary, and the short last block
    expect(file.ensure(5 * BLOCK - 1, 5 * BLOCK + 1)).toBe(false);
    expect(Buffer.from(file.bytes.subarray(4 * BLOCK, 6 * BLOCK)).equals(content.subarray(4 * BLOCK, 6 * BLOCK))).toBe(true);
    file.ensure(content.length - 1, content.length);
    expect(Buffer.from(file.bytes.subarray(64 * BLOCK)).equals(content.subarray(64 * BLOCK))).toBe(true);
    file.close();
  });

  it("reads the rest in one go once a quarter of the file was asked for, then needs the file no more", () => {
    const { path, content } = fileOf(40 * BLOCK);
    const file = fileIntoOnDemand(path, zeroed);
    let whole = false;
    for (let b = 0; b < 40 && !whole; b += 3) whole = file.ensure(b * BLOCK, b * BLOCK + 1);
    expect(whole).toBe(true);
    expect(Buffer.from(file.bytes).equals(content)).toBe(true);
    // closing a file read whole is harmless, and it still answers
    file.close();
    expect(file.ensure(0, content.length)).toBe(true);
  });

  it("fails a read after close, names the file, and reads an empty file as whole", () => {
    const { path } = fileOf(3 * BLOCK);
    const file = fileIntoOnDemand(path, zeroed);
    file.close();
    expect(() => file.ensure(0, 1)).toThrow(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} was closed`));
    const empty = fileOf(0);
    expect(fileIntoOnDemand(empty.path, zeroed).ensure(0, 0)).toBe(true);
  });

  it("gives the same bytes as reading the file whole, here or off this thread", async () => {
    const { path, content } = fileOf(10 * BLOCK + 7);
    expect(Buffer.from(readFileInto(path, zeroed)).equals(content)).toBe(true);
    expect(Buffer.from(await readFileIntoAsync(path, zeroed)).equals(content)).toBe(true);
    await expect(readFileIntoAsync(join(dir, "missing.bin"), zeroed)).rejects.toThrow(/ENOENT/);
  });

  it("reads a big file in parts that together hold every byte once", async () => {
    // 4 parts of 4 MB and a ragged end: each part's bytes land at their own offsets.
    const { path, content } = fileOf((16 << 20) + 12_345);
    expect(Buffer.from(await readFileIntoAsync(path, zeroed)).equals(content)).toBe(true);
  });
});
