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

  it("excludes an Elixir def's head, a guarded or argument-less one too, and keeps its calls", async () => {
    const ex = [
      "defmodule Cart do", // 1
      "  def total(items) when is_list(items), do: sum(items)", // 2
      "  def empty do", // 3
      "    []", // 4
      "  end", // 5
      "  defp sum(items), do: Enum.reduce(items, 0, &+/2)", // 6
      "  def both, do: {total(empty()), sum([])}", // 7
      "end", // 8
    ].join("\n");
    const root = await parse("elixir", ex);
    expect(lines(findOccurrences(root, "sum"))).toEqual([2, 7]);
    expect(lines(findOccurrences(root, "total"))).toEqual([7]);
    expect(lines(findOccurrences(root, "empty"))).toEqual([7]);
    expect(lines(findOccurrences(root, "items"))).toEqual([2, 2, 2, 6, 6]);
  });

  it("excludes a C function definition reached through declarators", async () => {
    const c = "int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2); }\n";
    expect(lines(findOccurrences(await parse("c", c), "add"))).toEqual([2]);
    // A macro's `#define`, function-like or a constant, is its definition too.
    const macros = "#define LIST_MAX 64\n#define listFirst(l) ((l)->head)\nint f(list *l) { return listFirst(l) ? LIST_MAX : 0; }\n";
    expect(lines(findOccurrences(await parse("c", macros), "listFirst"))).toEqual([3]);
    expect(lines(findOccurrences(await parse("c", macros), "LIST_MAX"))).toEqual([3]);
  });

  it("excludes a const declaration's name and reports column positions", async () => {
    const js = "const limit = 3;\nfunction f(x) { return x < limit; }\n";
    const occ = findOccurrences(await parse("javascript", js), "limit");
    expect(occ).toEqual([{ line: 2, column: 27, where: "code", use: "other" }]);
  });
});

describe("the kind of each use", () => {
  const uses = (occ: Array<{ line: number; use: string }>) => occ.map((o) => `${o.line}:${o.use}`);

  it("tells imports, re-exports, calls, constructions and type references apart in TypeScript", async () => {
    const ts = [
      'import { Tick } from "./clock";', // 1 import
      'export { Tick } from "./clock";', // 2 re-export
      "const t: Tick = new Tick();", // 3 type, call
      "Tick();", // 4 call
      "obj.Tick();", // 5 call through a member
      "const f = Tick;", // 6 other
      "function g(x: Array<Tick>) {}", // 7 type
      'const { Tick: T } = require("./clock");', // 8 import
    ].join("\n");
    expect(uses(findOccurrences(await parse("typescript", ts), "Tick"))).toEqual(["1:import", "2:re-export", "3:type", "3:call", "4:call", "5:call", "6:other", "7:type", "8:import"]);
  });

  it("reads the same kinds from Python, Go, Java and Rust trees", async () => {
    const py = "from clock import tick\ntick()\ndef f(x: tick): pass\n";
    expect(uses(findOccurrences(await parse("python", py), "tick"))).toEqual(["1:import", "2:call", "3:type"]);
    const go = "package a\nfunc f(x Tick) { Tick(); var y Tick }\n";
    expect(uses(findOccurrences(await parse("go", go), "Tick"))).toEqual(["2:type", "2:call", "2:type"]);
    const java = "import a.b.Tick;\nclass X { Tick t = new Tick(); void f() { o.Tick(); } }\n";
    expect(uses(findOccurrences(await parse("java", java), "Tick"))).toEqual(["1:import", "2:type", "2:call", "2:call"]);
    const rust = "use crate::clock::Tick;\npub use crate::clock::Tick;\nfn f(x: Tick) { Tick(); }\n";
    expect(uses(findOccurrences(await parse("rust", rust), "Tick"))).toEqual(["1:import", "2:re-export", "3:type", "3:call"]);
  });

  it("calls comment and string matches mentions, and guesses from the line without a grammar", async () => {
    const occ = findOccurrences(await parse("typescript", "// Tick here\nTick();\n"), "Tick", { includeCommentsAndStrings: true });
    expect(uses(occ)).toEqual(["1:mention", "2:call"]);
    expect(uses(findOccurrencesInText("import Tick\nTick(1)\nx = Tick\n", "Tick"))).toEqual(["1:import", "2:call", "3:other"]);
  });
});

describe("findOccurrencesInText", () => {
  it("matches whole words and skips comment lines and definitions", () => {
    const text = "proc run\n# run it\nrun now\nrunner\ncall run()\n";
    expect(lines(findOccurrencesInText(text, "run"))).toEqual([1, 3, 5]);
  });

  it("takes a Lisp name whole: a hyphen that goes on makes a longer name", () => {
    const text = "(magit-tag-create name)\n(magit-tag)\n(apply #'magit-tag args)\n";
    expect(lines(findOccurrencesInText(text, "magit-tag"))).toEqual([2, 3]);
  });
});

describe("Emacs Lisp", () => {
  it("leaves out what defining forms name, and calls a form's first symbol a call", async () => {
    const source = [
      "(defun cart-add (item) (push item cart--items))", // 1 definition
      "(defvar cart-add nil)", // 2 a variable of the same name: its definition
      "(cl-defun cart-add-all (items) (mapc #'cart-add items))", // 3 a function reference
      "(cart-add 'apple)", // 4 a call
      "(if cart-add (message \"cart-add\"))", // 5 a variable read; a string
      "'(cart-add 1)", // 6 quoted data
    ].join("\n");
    const found = findOccurrences(await parse("elisp", source), "cart-add");
    expect(found.map((o) => `${o.line}:${o.use}`)).toEqual(["3:other", "4:call", "5:other", "6:other"]);
  });
});
