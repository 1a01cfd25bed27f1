// The invariant the indexer relies on: whatever the limits, every line of a file with something
// to search is inside some chunk, chunks are whole lines in order, and their content is exactly
// the file's text for their line range. A block's bare frame may be left out where it could not
// join a chunk (closing lines, a module's opening line alone, a file's opening comment mark).
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { fixtureNames, options, readFixture, symbolFixtureNames } from "./helpers.js";

const LIMITS = [
  {},
  { minChars: 0 },
  { maxLines: 6, maxChars: 400, minChars: 0 },
  { maxLines: 3, maxChars: 120, minChars: 60 },
  { packChars: 1500 },
  { maxLines: 20, maxChars: 600, packChars: 500 },
];

const textFixtures = [...fixtureNames(), ...symbolFixtureNames()].filter((name) => !name.endsWith(".pdf"));

/**
 * What a chunker may leave out: lines that only close blocks, a bare module, namespace or class
 * opening (with a `{` line after it), the file's first comment line or two.
 */
const FRAME_LINE = /^(?:end|[)\]}]+)[;,]?\s*(?:(?:#|\/\/).*)?$/;
const OPENING_LINE = /^(?:module|namespace)\s+[\w:.]+\s*\{?$|^class\s+\w+(?:::\w+)*$|^(?:(?:public|internal|static)\s+)*partial\s+class\s+\w+\s*\{?$/;
const COMMENT_LINE = /^(?:#|\/\/|\/\*|\*|--)/;
function mayBeLeftOut(fileLines: string[], index: number): boolean {
  const text = fileLines[index].trim();
  if (FRAME_LINE.test(text) || OPENING_LINE.test(text)) return true;
  const before = fileLines.slice(0, index).filter((l) => l.trim());
  if (text === "{" && OPENING_LINE.test(before[before.length - 1]?.trim() ?? "")) return true;
  return COMMENT_LINE.test(text) && before.length < 2 && before.every((l) => COMMENT_LINE.test(l.trim()));
}

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
        const lost = fileLines.map((text, i) => (text.trim() && !covered.has(i + 1) && !mayBeLeftOut(fileLines, i) ? i + 1 : 0)).filter(Boolean);
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

  it("covers seeded random documents in every text format, within the limits unless one line is too long", async () => {
    // Deterministic pseudo-random generator: the same documents on every run
    // (CHUNK_FUZZ_SEED=n explores other ones).
    let seed = Number(process.env.CHUNK_FUZZ_SEED ?? 12345);
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor(seed / 65536) % n; // the low bits of this generator cycle quickly
    };
    const pieces: Record<string, string[]> = {
      md: ["# Title", "## Part", "### Deep", "```", "text line", "", "- item", "Setext", "===", "---"],
      tex: ["\\chapter{A}", "\\section{B}", "\\subsection*{C}", "% \\section{no}", "prose", "", "\\begin{x}"],
      razor: ["@code {", "}", "@functions {", "  int x = 1;", "<p>hi</p>", "", "@{", "\"}\"", "{"],
      sln: ['Project("{X}") = "A", "a\\a.csproj", "{1}"', "EndProject", "Global", "\tGlobalSection(S) = pre", "\tEndGlobalSection", "EndGlobal", ""],
      log: ["plain", "", "x".repeat(300)],
      sql: ["CREATE TABLE t (", "  id int", ");", "-- note", "AS $$", "BEGIN; END;", "$$ LANGUAGE sql;", "INSERT INTO t VALUES (';');", ""],
      // Random code is mostly broken code: the syntax chunker must still keep every line.
      ts: ["export function f(a: number) {", "}", "class A {", "  m(x) {", "    return x;", "  }", "const g = () => {", "// note", "", "import { a } from 'b';", "interface I { x: number }"],
      py: ["def f(x):", "    return x", "class A:", "    def m(self):", "        pass", "@decorator", "x = 1", "", "# comment"],
      json: ["{", "}", '"a": 1,', '"b": {', '"c": [1, 2],', "[", "]", ""],
      html: ["<div>", "</div>", "<script>", "let a = 1;", "</script>", "<style>", "p { color: red }", "</style>", "<p>text</p>", ""],
    };
    for (let round = 0; round < 25; round++) {
      for (const [ext, vocab] of Object.entries(pieces)) {
        const lines = Array.from({ length: 1 + rand(80) }, () => vocab[rand(vocab.length)] + (rand(3) === 0 ? " " + "w".repeat(rand(120)) : ""));
        const text = lines.join("\n");
        const limits = { maxLines: 1 + rand(12), maxChars: 40 + rand(400), minChars: rand(150), fallbackLines: 1 + rand(20), overlapLines: rand(5) };
        const chunks = await chunkFile(`fuzz/doc.${ext}`, text, options(limits));
        const covered = new Set<number>();
        let lastEnd = 0;
        for (const c of chunks) {
          expect(c.content).toBe(lines.slice(c.startLine - 1, c.endLine).join("\n"));
          if (ext !== "log") {
            expect(c.startLine).toBeGreaterThan(lastEnd);
            const oneLongLine = c.startLine === c.endLine;
            if (!oneLongLine) {
              expect(c.endLine - c.startLine + 1, `${ext} ${JSON.stringify(limits)}`).toBeLessThanOrEqual(limits.maxLines);
              expect(c.content.length + 1, `${ext} ${JSON.stringify(limits)}`).toBeLessThanOrEqual(limits.maxChars);
            }
          }
          lastEnd = c.endLine;
          for (let l = c.startLine; l <= c.endLine; l++) covered.add(l);
        }
        const lost = lines.map((t, i) => (t.trim() && !covered.has(i + 1) && !mayBeLeftOut(lines, i) ? i + 1 : 0)).filter(Boolean);
        expect(lost, `${ext} ${JSON.stringify(limits)}`).toEqual([]);
      }
    }
  });

  it("gives nothing for empty or blank files", async () => {
    for (const path of ["a.ts", "a.md", "a.txt", "a.json"]) {
      expect(await chunkFile(path, "", options()), path).toEqual([]);
      expect(await chunkFile(path, "\n  \n\t\n", options()), path).toEqual([]);
    }
  });
});
