import { describe, expect, it } from "vitest";
import { findOccurrences, findOccurrencesInText } from "../../core/symbols/index.js";
import { parse } from "./parse.js";

const lines = (occ: Array<{ line: number }>) => occ.map((o) => o.line);

describe("findOccurrences", () => {
  const ts = [
    "export function parseConfig(text: string) {", // 1 definition
    "  return JSON.parse(text);", // 2
    "}", // 3
    "// parseConfig is called below", // 4 comment
    "const parseConfigStrict = 1;", // 5 longer identifier
    'const label = "parseConfig";', // 6 string
    "const cfg = parseConfig('{}');", // 7 call
    "export { parseConfig };", // 8 export
    "obj.parseConfig();", // 9 member access
  ].join("\n");

  it("finds identifier tokens only: not substrings, comments, strings, nor the definition", async () => {
    const occ = findOccurrences(await parse("typescript", ts), "parseConfig");
    expect(lines(occ)).toEqual([7, 8, 9]);
    expect(occ.every((o) => o.where === "code")).toBe(true);
  });

  it("adds comment and string matches when asked", async () => {
    const occ = findOccurrences(await parse("typescript", ts), "parseConfig", { includeCommentsAndStrings: true });
    expect(occ.map((o) => `${o.line}:${o.where}`)).toEqual(["4:comment", "6:string", "7:code", "8:code", "9:code"]);
  });

  it("excludes a Python def and a class name but keeps calls and type uses", async () => {
    const py = "class Cache:\n    pass\n\ndef build() -> Cache:\n    return Cache()\n\ndef build_all():\n    build()\n";
    expect(lines(findOccurrences(await parse("python", py), "Cache"))).toEqual([4, 5]);
    expect(lines(findOccurrences(await parse("python", py), "build"))).toEqual([8]);
  });

  it("excludes a C function definition reached through declarators", async () => {
    const c = "int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2); }\n";
    expect(lines(findOccurrences(await parse("c", c), "add"))).toEqual([2]);
  });

  it("excludes a const declaration's name and reports column positions", async () => {
    const js = "const limit = 3;\nfunction f(x) { return x < limit; }\n";
    const occ = findOccurrences(await parse("javascript", js), "limit");
    expect(occ).toEqual([{ line: 2, column: 27, where: "code" }]);
  });
});

describe("findOccurrencesInText", () => {
  it("matches whole words and skips comment lines and definitions", () => {
    const text = "proc run\n# run it\nrun now\nrunner\ncall run()\n";
    expect(lines(findOccurrencesInText(text, "run"))).toEqual([1, 3, 5]);
  });
});
