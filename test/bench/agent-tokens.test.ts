// Pins the counting rules of the agent-tokens benchmark section: OpenCode's grep and read
// formats and limits, the read order of grep + read, and when search_semantic needs a read.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatGrep, formatRead, grepAll, grepPattern, grepRead, quantile, readUntilCovered, searchThenRead, shareWithin, type SourceFile } from "./agent-tokens-method.js";

// One token per character keeps the expected numbers readable.
const count = (t: string) => t.length;
const abs = (rel: string) => `/w/${rel}`;
const same = (rel: string) => rel;

const dir = mkdtempSync(join(tmpdir(), "agent-tokens-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function workspace(files: Record<string, string>): SourceFile[] {
  return Object.entries(files).map(([rel, text]) => {
    writeFileSync(join(dir, rel.replace(/\//g, "_")), text);
    return { rel, text };
  });
}

describe("OpenCode tool formats", () => {
  it("grep groups matches under each file and stops at 100", () => {
    const files = workspace({ "a.py": "def retry():\n  pass\n", "b.py": "RETRY = 3\nx = 1\n" });
    const out = formatGrep(grepAll(files, grepPattern(["retry"])!), abs);
    expect(out).toBe("Found 2 matches\n/w/a.py:\n  Line 1: def retry():\n\n/w/b.py:\n  Line 1: RETRY = 3");
    const many = workspace({ "m.txt": Array.from({ length: 150 }, () => "hit").join("\n") });
    const big = formatGrep(grepAll(many, grepPattern(["hit"])!), abs);
    expect(big.split("\n")[0]).toBe("Found 100 matches (more matches available)");
    expect(big.match(/ {2}Line /g)).toHaveLength(100);
    expect(big.endsWith("\n\n(Results truncated. Consider using a more specific path or pattern.)")).toBe(true);
    expect(formatGrep([], abs)).toBe("No files found");
  });

  it("the pattern is case-insensitive, any word, regex characters escaped", () => {
    const p = grepPattern(["a.b", "Foo"])!;
    expect(p.test("xxFOOxx")).toBe(true);
    expect(p.test("a.b")).toBe(true);
    expect(p.test("axb")).toBe(false);
    expect(grepPattern([])).toBeNull();
  });

  it("read numbers lines from the offset, 2000 per window, and says how to go on", () => {
    const text = Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
    const w = formatRead("/w/f", text);
    expect(w.output.startsWith("<path>/w/f</path>\n<type>file</type>\n<content>\n1: l1\n2: l2\n")).toBe(true);
    expect(w.last).toBe(2000);
    expect(w.output.endsWith("\n2000: l2000\n\n(Showing lines 1-2000 of 2500. Use offset=2001 to continue.)\n</content>")).toBe(true);
    const tail = formatRead("/w/f", text, 2001);
    expect(tail.output.endsWith("2500: l2500\n\n(End of file - total 2500 lines)\n</content>")).toBe(true);
    expect(tail.more).toBe(false);
  });

  it("read stops at 50 KB and cuts lines over 2000 characters", () => {
    const long = "x".repeat(3000);
    const w = formatRead("/w/f", Array.from({ length: 40 }, () => long).join("\n"));
    expect(w.output).toContain(`1: ${"x".repeat(2000)}... (line truncated to 2000 chars)`);
    // 2035 bytes per line (+1 newline): 25 lines fit in 51,200 bytes.
    expect(w.last).toBe(25);
    expect(w.output).toContain("(Output capped at 50 KB. Showing lines 1-25. Use offset=26 to continue.)");
  });
});

describe("grep + read", () => {
  const files = workspace({
    "docs.md": "retry retry retry\nretry\n",
    "src/net.py": "class Client:\n  def retry(self):\n    pass\n",
    "src/other.py": "nothing here\n",
  });
  const targets = [{ path: "pkg/src/net.py", start: null, end: null }];
  const repoRel = (rel: string) => `pkg/${rel}`;

  it("reads matching files most matches first and stops at the first target file", () => {
    const r = grepRead({ files, words: ["retry"], targets, repoRel, absPath: abs, count });
    const grepOut = formatGrep(grepAll(files, grepPattern(["retry"])!), abs);
    const expected = grepOut.length + formatRead("/w/docs.md", files[0].text).output.length + formatRead("/w/src/net.py", files[1].text).output.length;
    expect(r.tokens).toBe(expected);
    expect(r.filesRead).toBe(2);
    expect(r.found).toBe("src/net.py");
  });

  it("is not found when no matching file is a target", () => {
    const r = grepRead({ files, words: ["nothing"], targets, repoRel, absPath: abs, count });
    expect(r.tokens).toBe(Infinity);
    expect(r.found).toBeNull();
  });

  it("reads further windows until a target's line span is inside what was read", () => {
    const text = Array.from({ length: 4100 }, (_, i) => `line ${i + 1}`).join("\n");
    const t = { path: "f", start: 2500, end: 2510 };
    const w1 = formatRead("/w/f", text, 1).output.length;
    const w2 = formatRead("/w/f", text, 2001).output.length;
    expect(readUntilCovered("/w/f", text, t, 1, count)).toBe(w1 + w2);
    // From a hit's first line, past the span's start: the file is read again from line 1.
    const fromHit = formatRead("/w/f", text, 2505).output.length;
    expect(readUntilCovered("/w/f", text, t, 2505, count)).toBe(fromHit + w1 + w2);
  });
});

describe("search_semantic, then read", () => {
  const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
  const base = { searchOutput: "x".repeat(500), repoRel: same, absPath: abs, fileText: () => text, count, grepRead: () => ({ tokens: 7000, grepTokens: 1000, filesRead: 3, matchingFiles: 5, found: "a" }) };

  it("counts only the answer when a shown hit is on a target file", () => {
    const shown = [
      { rel: "other", startLine: 1, endLine: 10, shownFirst: 1, shownLast: 10 },
      { rel: "a", startLine: 40, endLine: 90, shownFirst: 40, shownLast: 63 },
    ];
    const r = searchThenRead({ ...base, shown, targets: [{ path: "a", start: null, end: null }] });
    expect(r).toMatchObject({ tokens: 500, how: "output", rank: 2 });
    const strict = searchThenRead({ ...base, shown, targets: [{ path: "a", start: null, end: null }], alwaysRead: true });
    expect(strict.tokens).toBe(500 + formatRead("/w/a", text, 40).output.length);
  });

  it("adds a read from the hit's first line when the span is beyond the preview", () => {
    const shown = [{ rel: "a", startLine: 40, endLine: 90, shownFirst: 40, shownLast: 63 }];
    const r = searchThenRead({ ...base, shown, targets: [{ path: "a", start: 70, end: 80 }] });
    expect(r).toMatchObject({ tokens: 500 + formatRead("/w/a", text, 40).output.length, how: "read", rank: 1 });
  });

  it("falls back to grep + read on top of the answer when no shown hit is relevant", () => {
    const shown = [{ rel: "a", startLine: 1, endLine: 10, shownFirst: 1, shownLast: 10 }];
    const r = searchThenRead({ ...base, shown, targets: [{ path: "a", start: 50, end: 60 }] });
    expect(r).toMatchObject({ tokens: 7500, how: "grep", rank: null });
  });
});

describe("summaries", () => {
  it("nearest-rank quantiles put not-found (Infinity) last", () => {
    expect(quantile([5, 1, Infinity, 3], 0.5)).toBe(3);
    expect(quantile([5, 1, Infinity, 3], 0.9)).toBe(Infinity);
    expect(shareWithin([10, 20_000, 20_001, Infinity], 20_000)).toBe(0.5);
  });
});
