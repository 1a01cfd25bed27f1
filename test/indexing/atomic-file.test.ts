// State files are replaced whole or not at all: a reader in another process sees the old file
// or the new one, and a write that fails halfway leaves the old one and no temporary file.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomicWith, writeFileAtomicWithAsync } from "../../core/indexing/atomic-file.js";
import { yieldToEventLoop } from "../../core/yield.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** A file in a folder not made yet, in a temporary folder of the test's own. */
function fileIn(): string {
  const dir = mkdtempSync(join(tmpdir(), "rag-atomic-"));
  dirs.push(dir);
  return join(dir, "state", "keyword-1.bin");
}

describe("atomic state files", () => {
  it("written in pieces, with pauses between them, the file appears whole", async () => {
    const file = fileIn();
    await writeFileAtomicWithAsync(file, async (write) => {
      write("first ");
      await yieldToEventLoop();
      write(new TextEncoder().encode("second"));
    });
    expect(readFileSync(file, "utf8")).toBe("first second");
    expect(readdirSync(join(file, ".."))).toEqual(["keyword-1.bin"]);
  });

  it("a write that fails halfway keeps the old file and leaves no temporary file, with or without pauses", async () => {
    const file = fileIn();
    writeFileAtomicWith(file, (write) => write("old"));
    await expect(
      writeFileAtomicWithAsync(file, async (write) => {
        write("half of the new ");
        await yieldToEventLoop();
        throw new Error("disk full");
      }),
    ).rejects.toThrow("disk full");
    expect(() =>
      writeFileAtomicWith(file, (write) => {
        write("half");
        throw new Error("disk full");
      }),
    ).toThrow("disk full");
    expect(readFileSync(file, "utf8")).toBe("old");
    expect(readdirSync(join(file, ".."))).toEqual(["keyword-1.bin"]);
  });
});
