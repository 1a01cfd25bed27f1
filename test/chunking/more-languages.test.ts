// Languages beyond the required set (PHP, Scala, Elixir, Bash, Zig, Lua, YAML, TOML), and a guard
// that every language table compiles against its grammar.
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { AST_LANGUAGES } from "../../core/chunking/languages.js";
import { chunkFixture, find, options, outline } from "./helpers.js";

const unmerged = { minChars: 0 };

describe("every language table", () => {
  it("compiles its unit query against its grammar and chunks a line of text", async () => {
    for (const spec of AST_LANGUAGES) {
      const path = `probe/file${spec.extensions[0]}`;
      const chunks = await chunkFile(path, "x\n", options());
      expect(chunks, path).toHaveLength(1);
      expect(chunks[0].language, path).toBe(spec.language);
    }
  });
});

describe("PHP", () => {
  it("interfaces, traits, classes with constructors and methods, enums, functions", async () => {
    const chunks = await chunkFixture("User.php", { minChars: 0, maxLines: 5 });
    expect(find(chunks, "Greets", "trait")).toMatchObject({ startLine: 8, endLine: 10 });
    expect(find(chunks, "__construct", "constructor").context).toBe("class User > constructor __construct(string $first)");
    expect(find(chunks, "name", "method").context).toBe("class User > method name()");
    expect(find(chunks, "Role", "enum").startLine).toBe(25);
    expect(find(chunks, "helper", "function").context).toBe("function helper(int $x)");
  });
});

describe("Scala", () => {
  it("traits, case classes, objects and their defs", async () => {
    const chunks = await chunkFixture("Shapes.scala", { minChars: 0, maxLines: 2 });
    expect(find(chunks, "Shape", "trait").startLine).toBe(5);
    expect(find(chunks, "total", "method").context).toBe("class Geometry > method total(shapes: Seq[Shape])");
    expect(find(chunks, "area", "method").context).toBe("class Circle > method area");
  });
});

describe("Elixir", () => {
  it("modules and def/defp/defmacro with their @doc, named by the macro call", async () => {
    const chunks = await chunkFixture("cart.ex", { minChars: 0, maxLines: 4 });
    expect(find(chunks, "add", "function")).toMatchObject({ startLine: 8, endLine: 11, context: "module Shop.Cart > function add(cart, %Item{} = item)" });
    expect(find(chunks, "total", "function").context).toBe("module Shop.Cart > function total(items)");
    expect(find(chunks, "debug", "function").startLine).toBe(15);
    expect(chunks[0]).toMatchObject({ kind: "module", symbol: "Shop.Cart", startLine: 1 });
  });
});

describe("Bash", () => {
  it("functions in both syntaxes, top-level commands in between", async () => {
    const chunks = await chunkFixture("build.sh", unmerged);
    expect(outline(chunks)).toEqual(["preamble  1-2", "function log 4-6", "function build 8-11", "block  13-13"]);
  });
});

describe("Zig", () => {
  it("functions, containers assigned to a const, and tests, named by their declarations", async () => {
    const chunks = await chunkFixture("geometry.zig", unmerged);
    expect(outline(chunks)).toEqual([
      "preamble  1-1",
      "struct Point 3-11",
      "enum Color 13-13",
      "struct Value 15-15",
      "function main 17-20",
      "function helper 22-24",
      "test adds points 26-28",
      "struct Handle 30-30",
      "enum ParseError 32-32",
      "test helper 34-36",
    ]);
    expect(find(chunks, "helper", "function").context).toBe("function helper(a: i32)");
  });

  it("a struct too big for one chunk becomes its methods, the struct in their context", async () => {
    const chunks = await chunkFixture("geometry.zig", { minChars: 0, maxLines: 4 });
    expect(find(chunks, "add", "method")).toMatchObject({ startLine: 8, endLine: 10, context: "struct Point > method add(self: Point, other: Point)" });
  });
});

const GREETER_OUTLINE = [
  "preamble  1-1",
  "function greet 3-6",
  "method rename 8-11",
  "function shout 13-15",
  "function loud_greet 17-19",
  "function farewell 21-23",
  "function on_event 25-27",
  "block  29-35",
];

describe("Lua", () => {
  it("function statements, local functions and functions assigned to names", async () => {
    const chunks = await chunkFixture("greeter.lua", unmerged);
    expect(outline(chunks)).toEqual(GREETER_OUTLINE);
    expect(chunks.map((c) => c.context).filter(Boolean)).toEqual([
      "function M.greet(name)",
      "method M:rename(name)",
      "function shout(text)",
      "function loud_greet(name)",
      "function M.farewell(name, when)",
      "function on_event(evt)",
    ]);
  });

  it("parses the same way every time: the grammar's scanner state is cleared between parses", async () => {
    for (const text of ['x = "a"\n', "y = 1\n-- note\n", "local s = [[\nlong\n"]) {
      await chunkFile("b.lua", text, options());
      expect(outline(await chunkFixture("greeter.lua", unmerged))).toEqual(GREETER_OUTLINE);
    }
  });
});

describe("YAML and TOML", () => {
  it("YAML: one chunk per top-level key of each document", async () => {
    const chunks = await chunkFixture("workflow.yaml", unmerged);
    expect(chunks.filter((c) => c.kind === "key").map((c) => `${c.symbol} ${c.startLine}-${c.endLine}`)).toEqual([
      "name 2-2",
      "on 3-5",
      "jobs 6-11",
      "second 13-13",
    ]);
  });

  it("TOML: top-level keys, tables and arrays of tables", async () => {
    const chunks = await chunkFixture("Cargo.toml", unmerged);
    expect(outline(chunks)).toEqual(["key title 1-1", "table package 3-5", "table dependencies 7-8", "table bin 10-11"]);
  });
});
