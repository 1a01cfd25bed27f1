// A file read on demand must hold exactly the file's bytes wherever it was asked for, read no
// more than the blocks asked for while little is asked, and end up whole (and let go of the
// file) once much of it is. A file read with a part left pending holds the rest at once, any of
// the part when asked, and all of it a while later.
import { randomBytes } from "node:crypto";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileIntoOnDemand, readFileInto, readFileIntoLeavingPart } from "../../core/files/read-into.js";

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
    expect(Buffer.from((await readFileIntoLeavingPart(path, zeroed, 4, 8, () => null)).bytes).equals(content)).toBe(true);
    await expect(readFileIntoLeavingPart(join(dir, "missing.bin"), zeroed, 4, 8, () => null)).rejects.toThrow(/ENOENT/);
  });

  it("reads a big file in parts that together hold every byte once", async () => {
    // 4 parts of 4 MB and a ragged end: each part's bytes land at their own offsets.
    const { path, content } = fileOf((16 << 20) + 12_345);
    expect(Buffer.from((await readFileIntoLeavingPart(path, zeroed, 4, 8, () => null)).bytes).equals(content)).toBe(true);
  });

  it("leaves the part its ends name for later, gives any of it at once when asked, and reads it behind", async () => {
    const { path, content } = fileOf(3 << 20);
    const seen: Array<[number, number, number]> = [];
    const part = { start: 1000, end: (2 << 20) + 5 };
    const file = await readFileIntoLeavingPart(path, zeroed, 16, 24, (head, foot, size) => {
      seen.push([head.length, foot.length, size]);
      // it decides from the file's own first and last bytes
      expect(Buffer.from(head).equals(content.subarray(0, 16))).toBe(true);
      expect(Buffer.from(foot).equals(content.subarray(size - 24))).toBe(true);
      return part;
    });
    expect(seen).toEqual([[16, 24, content.length]]);
    const { bytes } = file;
    expect(Buffer.from(bytes.subarray(0, part.start)).equals(content.subarray(0, part.start))).toBe(true);
    expect(Buffer.from(bytes.subarray(part.end)).equals(content.subarray(part.end))).toBe(true);
    file.ensure(500_000, 500_100);
    expect(Buffer.from(bytes.subarray(500_000, 500_100)).equals(content.subarray(500_000, 500_100))).toBe(true);
    // replaced on disk meanwhile: what is asked for later is the file as it was opened
    const replacement = fileOf(content.length);
    renameSync(replacement.path, path);
    file.ensure(900_000, 900_010);
    expect(Buffer.from(bytes.subarray(900_000, 900_010)).equals(content.subarray(900_000, 900_010))).toBe(true);
    // and the rest of the part is read behind, in a while
    await waitFor(() => Buffer.from(bytes).equals(content), 5000);
    expect(Buffer.from(bytes).equals(content)).toBe(true);
  });
});

async function waitFor(done: () => boolean, ms: number): Promise<void> {
  for (const until = Date.now() + ms; !done() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
}
