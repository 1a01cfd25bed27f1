import { describe, expect, it } from "vitest";
import { buildUsageReport, isTestPath, type FileOccurrences, type Occurrence, type UseKind } from "../../core/symbols/index.js";

function file(path: string, ...uses: UseKind[]): FileOccurrences {
  const occurrences: Occurrence[] = uses.map((use, i) => ({ line: i + 1, column: 0, where: "code", use }));
  return { path, language: "typescript", occurrences };
}

const files = [
  file("a/defines.ts", ...Array<UseKind>(9).fill("call")),
  file("b/uses.ts", "import", "call"),
  file("c/empty.ts"),
  file("src/app.test.ts", "import", "call"),
  file("z/reexports.ts", "re-export"),
];

describe("the usage report", () => {
  it("lists every file with uses: importers first, then the rest, tests last", () => {
    const r = buildUsageReport("f", files, { limit: 5 });
    expect(r.total).toBe(14);
    expect(r.files.map((f) => f.path)).toEqual(["b/uses.ts", "z/reexports.ts", "a/defines.ts", "src/app.test.ts"]);
    expect(r.files[0]).toMatchObject({ count: 2, kinds: { import: 1, call: 1 }, importer: true, test: false });
    expect(r.files[3]).toMatchObject({ importer: true, test: true });
  });

  it("takes the page in turn from each file and says what is left and where most of it is", () => {
    const r = buildUsageReport("f", files, { limit: 5 });
    expect(r.page.map((u) => `${u.path}:${u.occurrence.line}`)).toEqual(["b/uses.ts:1", "z/reexports.ts:1", "a/defines.ts:1", "src/app.test.ts:1", "b/uses.ts:2"]);
    expect(r.remaining).toEqual({ uses: 9, files: 2, mostIn: "a/defines.ts" });
    const next = buildUsageReport("f", files, { limit: 5, offset: 5 });
    expect(next.page.map((u) => `${u.path}:${u.occurrence.line}`)).toEqual(["a/defines.ts:2", "src/app.test.ts:2", "a/defines.ts:3", "a/defines.ts:4", "a/defines.ts:5"]);
    const past = buildUsageReport("f", files, { limit: 5, offset: 99 });
    expect(past).toMatchObject({ offset: 14, page: [], remaining: { uses: 0, files: 0 } });
  });

  it("pages through one file when asked", () => {
    const r = buildUsageReport("f", files, { limit: 4, offset: 4, file: "a/defines.ts" });
    expect(r.file).toBe("a/defines.ts");
    expect(r.page.map((u) => u.occurrence.line)).toEqual([5, 6, 7, 8]);
    expect(r.remaining).toEqual({ uses: 1, files: 1, mostIn: "a/defines.ts" });
  });

  it("knows test files by their conventional paths", () => {
    for (const p of ["test/a.ts", "src/__tests__/a.ts", "a.spec.tsx", "pkg/a_test.go", "tests/test_a.py", "src/FooTest.java", "e2e/login.ts", "Tests/AppTests/RouterTests.swift", "Dapper.Tests/Query.cs", "test/fixtures/a.ts"]) expect(isTestPath(p), p).toBe(true);
    for (const p of ["src/testing-utils.ts", "src/latest.ts", "src/contest.py", "attest/a.ts"]) expect(isTestPath(p), p).toBe(false);
  });
});
