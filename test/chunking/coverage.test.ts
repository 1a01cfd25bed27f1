// The invariant the indexer relies on: whatever the limits, every non-blank line of a file
// is inside some chunk, chunks are whole lines in order, and their content is exactly the
// file's text for their line range.
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { fixtureNames, options, readFixture } from "./helpers.js";

const LIMITS = [
  {},
  { minChars: 0 },
  { maxLines: 6, maxChars: 400, minChars: 0 },
  { maxLines: 3, maxChars: 120, minChars: 60 },
];

const textFixtures = fixtureNames().filter((name) => !name.endsWith(".pdf"));

/** The file with CRLF line endings: chunking must not depend on the line ending. */
function withCrlf(bytes: Uint8Array): Uint8Array {
  return new TextEncoder().encode(new TextDecoder().decode(bytes).replace(/\n/g, "\r\n"));
}

describe("no line is lost", () => {
  for (const name of textFixtures) {
    it(`covers every non-blank line of ${name}`, async () => {
      const lf = readFixture(name);
      for (const [bytes, limits] of [...LIMITS.map((l) => [lf, l] as const), [withCrlf(lf), LIMITS[2]] as const]) {
        const text = new TextDecoder().decode(bytes);
        const eol = text.includes("\r\n") ? "\r\n" : "\n";
        const fileLines = text.replace(/\r?\n$/, "").split(eol);
        const chunks = await chunkFile(`x/${name}`, bytes, options(limits));
        expect(chunks.length).toBeGreaterThan(0);
        const covered = new Set<number>();
        let lastEnd = 0;
        for (const chunk of chunks) {
          expect(chunk.startLine).toBeGreaterThanOrEqual(1);
          expect(chunk.endLine).toBeGreaterThanOrEqual(chunk.startLine);
          expect(chunk.endLine).toBeLessThanOrEqual(fileLines.length);
          expect(chunk.content).toBe(fileLines.slice(chunk.startLine - 1, chunk.endLine).join(eol));
          // Only the line fallback overlaps its windows; every other chunker cuts disjoint ranges.
          if (chunk.kind !== "lines") expect(chunk.startLine).toBeGreaterThan(lastEnd);
          lastEnd = chunk.endLine;
          for (let l = chunk.startLine; l <= chunk.endLine; l++) covered.add(l);
        }
        const lost = fileLines.map((text, i) => (text.trim() && !covered.has(i + 1) ? i + 1 : 0)).filter(Boolean);
        expect(lost, `${name} with ${JSON.stringify(limits)}`).toEqual([]);
      }
    });
  }

  it("covers a long generated file with runs of statements between functions, within the limits", async () => {
    const parts: string[] = [];
    for (let i = 0; i < 40; i++) {
      for (let j = 0; j < 70; j++) parts.push(`registry.add("item${i}_${j}", ${j});`);
      parts.push(`export function f${i}(x: number): number {\n  return x + ${i};\n}`);
    }
    const text = parts.join("\n");
    const lines = text.split("\n");
    const chunks = await chunkFile("gen/table.ts", text, options({ maxLines: 50, minChars: 100 }));
    const covered = new Set<number>();
    for (const c of chunks) {
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(50);
      for (let l = c.startLine; l <= c.endLine; l++) covered.add(l);
    }
    expect(covered.size).toBe(lines.length);
    expect(chunks.filter((c) => c.kind === "function").map((c) => c.symbol)).toContain("f39");
  });

  it("gives nothing for empty or blank files", async () => {
    for (const path of ["a.ts", "a.md", "a.txt", "a.json"]) {
      expect(await chunkFile(path, "", options()), path).toEqual([]);
      expect(await chunkFile(path, "\n  \n\t\n", options()), path).toEqual([]);
    }
  });
});
