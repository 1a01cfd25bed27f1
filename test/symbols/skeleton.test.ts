import { describe, expect, it } from "vitest";
import { countKinds, outlineFromTree, regexOutline, type OutlineItem } from "../../core/symbols/index.js";
import { parseSource } from "../../core/chunking/index.js";
import { parse } from "./parse.js";

/** "kind name L1-L2" lines, indented by depth, for readable assertions. */
function render(items: OutlineItem[], depth = 0): string[] {
  return items.flatMap((i) => [`${"  ".repeat(depth)}${i.kind} ${i.name} ${i.startLine}-${i.endLine}`, ...render(i.children, depth + 1)]);
}

describe("outlineFromTree", () => {
  it("nests TypeScript class members and finds functions, arrow functions, interfaces, types and enums", async () => {
    const src = [
      "export interface Shape { area(): number }", // 1
      "export type Id = string;", // 2
      "enum Color { Red, Green }", // 3
      "export class Circle implements Shape {", // 4
      "  constructor(private r: number) {}", // 5
      "  area(): number {", // 6
      "    return Math.PI * this.r ** 2;", // 7
      "  }", // 8
      "}", // 9
      "export function makeCircle(r: number) {", // 10
      "  return new Circle(r);", // 11
      "}", // 12
      "export const double = (x: number) => x * 2;", // 13
      "const limit = 3;", // 14
    ].join("\n");
    const outline = render(outlineFromTree(await parse("typescript", src)));
    expect(outline).toEqual([
      "interface Shape 1-1",
      "  method area 1-1",
      "type Id 2-2",
      "enum Color 3-3",
      "class Circle 4-9",
      "  method constructor 5-5",
      "  method area 6-8",
      "function makeCircle 10-12",
      "function double 13-13",
    ]);
  });

  it("marks Python functions inside classes as methods and keeps decorators in the range", async () => {
    const src = "class Repo:\n    @cached\n    def load(self):\n        pass\n\ndef main():\n    Repo().load()\n";
    expect(render(outlineFromTree(await parse("python", src)))).toEqual(["class Repo 1-4", "  method load 2-4", "function main 6-7"]);
  });

  it("names Zig containers and Lua function values by the variable they are assigned to", async () => {
    const zig = "const Point = struct {\n    x: f32,\n    pub fn len(self: Point) f32 {\n        return self.x;\n    }\n};\nconst Color = enum { red };\nfn main() void {}\n";
    const zigTree = (await parseSource("a.zig", zig))!.tree;
    expect(render(outlineFromTree(zigTree.rootNode))).toEqual(["struct Point 1-6", "  method len 3-5", "enum Color 7-7", "function main 8-8"]);
    zigTree.delete();
    const lua = "function M.greet(n)\n  return n\nend\nlocal function shout(t) return t end\nM.bye = function(n) return n end\n";
    const luaTree = (await parseSource("a.lua", lua))!.tree;
    expect(render(outlineFromTree(luaTree.rootNode))).toEqual(["function M.greet 1-3", "function shout 4-4", "function M.bye 5-5"]);
    luaTree.delete();
  });

  it("reads Go types, methods and functions", async () => {
    const src = "package p\n\ntype Store struct {\n  n int\n}\n\nfunc (s *Store) Put(k string) {}\n\nfunc New() *Store { return nil }\n";
    expect(render(outlineFromTree(await parse("go", src)))).toEqual(["struct Store 3-5", "method Put 7-7", "function New 9-9"]);
  });

  it("lists test calls by their titles: Go subtests, busted's and Pest's suites and tests", async () => {
    const outline = async (path: string, src: string) => {
      const tree = (await parseSource(path, src))!.tree;
      const rows = render(outlineFromTree(tree.rootNode));
      tree.delete();
      return rows;
    };
    const go = 'package p\n\nfunc TestParse(t *testing.T) {\n\tt.Run("empty input", func(t *testing.T) {\n\t\tcheck(t)\n\t})\n\tt.Run(tc.name, func(t *testing.T) {})\n}\n';
    expect(await outline("p_test.go", go)).toEqual(["function TestParse 3-8", '  test "empty input" 4-6']);
    const lua = 'describe("util", function()\n  it("lists mods", function()\n    assert(true)\n  end)\nend)\n';
    expect(await outline("spec/util_spec.lua", lua)).toEqual(['suite "util" 1-5', '  test "lists mods" 2-4']);
    const php = "<?php\ndescribe('users', function () {\n    it('can be created', fn () => expect(true)->toBeTrue());\n    test('email is unique', function () {\n    })->throws(Exception::class);\n});\n";
    expect(await outline("tests/UsersTest.php", php)).toEqual(["suite 'users' 2-6", "  test 'can be created' 3-3", "  test 'email is unique' 4-5"]);
    const kotest = 'class CalcTest : FunSpec({\n    context("sums") {\n        test("adds two numbers") {\n            (1 + 2) shouldBe 3\n        }\n    }\n})\n';
    expect(await outline("CalcTest.kt", kotest)).toEqual(["class CalcTest 1-7", '  suite "sums" 2-6', '    test "adds two numbers" 3-5']);
    const gtest = "#include <gtest/gtest.h>\n\nTEST(ParserTest, EmptyInput) {\n  EXPECT_TRUE(parse(\"\").empty());\n}\n\nstatic int helper(int x) { return x; }\n";
    expect(await outline("parser_test.cc", gtest)).toEqual(["test ParserTest.EmptyInput 3-5", "function helper 7-7"]);
    const catch2 = 'TEST_CASE("parses empty input", "[parser]") {\n  REQUIRE(parse("").empty());\n}\n';
    expect(await outline("parser_test.cpp", catch2)).toEqual(['test "parses empty input" 1-3']);
  });

  it("reads Rust structs, traits, impls and their functions", async () => {
    const src = "struct Point { x: i32 }\ntrait Area { fn area(&self) -> i32; }\nimpl Area for Point {\n    fn area(&self) -> i32 { self.x }\n}\nfn main() {}\n";
    expect(render(outlineFromTree(await parse("rust", src)))).toEqual([
      "struct Point 1-1",
      "trait Area 2-2",
      "  method area 2-2",
      "impl Area for Point 3-5",
      "  method area 4-4",
      "function main 6-6",
    ]);
  });

  it("names C functions through their declarators", async () => {
    const src = "struct node { int v; };\nstatic int add(int a, int b) {\n  return a + b;\n}\n";
    expect(render(outlineFromTree(await parse("c", src)))).toEqual(["struct node 1-1", "function add 2-4"]);
    const header = "#define NODE_MAX 64\n#define nodeValue(n) ((n)->v)\nint add(int a, int b);\n";
    expect(render(outlineFromTree(await parse("c", header)))).toEqual(["macro nodeValue 2-2", "function add 3-3"]);
  });

  it("lists CSS rules and media blocks", async () => {
    const src = ".btn, .link {\n  color: red;\n}\n@media (max-width: 600px) {\n  .btn { color: blue; }\n}\n";
    expect(render(outlineFromTree(await parse("css", src)))).toEqual(["rule .btn, .link 1-3", "rule @media (max-width: 600px) 4-6", "  rule .btn 5-5"]);
  });

  it("nests Markdown headings by section", async () => {
    const src = "# Guide\n\nintro\n\n## Install\n\nrun it\n\n# FAQ\n\nnone\n";
    expect(render(outlineFromTree(await parse("markdown", src)))).toEqual(["heading Guide 1-8", "  heading Install 5-8", "heading FAQ 9-11"]);
  });

  it("reads Java classes, constructors, methods, interfaces and enums", async () => {
    const src = "public class Cart {\n  public Cart() {}\n  int total() { return 0; }\n}\ninterface Priced { int price(); }\nenum Size { S, M }\n";
    expect(render(outlineFromTree(await parse("java", src)))).toEqual([
      "class Cart 1-4",
      "  constructor Cart 2-2",
      "  method total 3-3",
      "interface Priced 5-5",
      "  method price 5-5",
      "enum Size 6-6",
    ]);
  });

  it("nests Ruby modules, classes and methods", async () => {
    const src = "module Shop\n  class Cart\n    def total\n      0\n    end\n  end\nend\n";
    expect(render(outlineFromTree(await parse("ruby", src)))).toEqual(["module Shop 1-7", "  class Cart 2-6", "    method total 3-5"]);
  });

  it("reads a Haskell module: a signature and its equations as one function, types, classes with methods, instances", async () => {
    const src = [
      "module WM.Layout (Layout (..), tile) where", // 1
      "import qualified Data.Map as M", // 2
      "-- | A rectangle.", // 3
      "data Rect = Rect { rectW :: !Int, rectH :: !Int } deriving (Eq, Show)", // 4
      "newtype Tall = Tall Int", // 5
      "type Windows = [Int]", // 6
      "class Show l => Layout l where", // 7
      "  doLayout :: l -> Rect -> Windows -> [(Int, Rect)]", // 8
      "  doLayout _ r ws = zip ws (repeat r)", // 9
      "  description :: l -> String", // 10
      "instance Layout Tall where", // 11
      "  description _ = \"Tall\"", // 12
      "tile :: Int -> Rect -> Int -> [Rect]", // 13
      "tile _ r 1 = [r]", // 14
      "-- the general case", // 15
      "tile n r k = replicate k r", // 16
      "infixr 5 |||", // 17
      "(|||) :: Rect -> Rect -> Rect", // 18
      "a ||| _ = a", // 19
    ].join("\n");
    const parsed = (await parseSource("WM/Layout.hs", src))!;
    expect(parsed.language).toBe("haskell");
    expect(render(outlineFromTree(parsed.tree.rootNode))).toEqual([
      "type Rect 4-4",
      "type Tall 5-5",
      "type Windows 6-6",
      "class Layout 7-10",
      "  method doLayout 8-9",
      "  method description 10-10",
      "impl Layout Tall 11-12",
      "  method description 12-12",
      "function tile 13-16",
      "function ||| 18-19",
    ]);
    parsed.tree.delete();
    // A file the grammar cannot parse (the root is an ERROR): what is still recognisable, not its imports as modules.
    const bad = "module Bad where\n\n#if MIN_VERSION_base(4,8,0)\nimport Data.Functor ((<&>))\n#endif\n\nfoo :: Int -> Int\nfoo x = case x of\n  0 -> 1\n  _ -> (((\n\nbar = 2\n";
    const broken = (await parseSource("Bad.hs", bad))!;
    expect(broken.tree.rootNode.type).toBe("ERROR");
    expect(render(outlineFromTree(broken.tree.rootNode))).toEqual(["function foo 7-7"]);
    broken.tree.delete();
  });

  it("counts kinds over nested items", async () => {
    const items = outlineFromTree(await parse("typescript", "class A { m() {} n() {} }\nfunction f() {}\n"));
    expect(Object.fromEntries(countKinds(items))).toEqual({ class: 1, method: 2, function: 1 });
  });
});

describe("regexOutline", () => {
  it("finds declaration-looking lines and spans each to the next", () => {
    const src = "# Notes\ntext\nfunction go() {\n}\nclass Box:\n  pass\n";
    expect(render(regexOutline(src))).toEqual(["heading Notes 1-2", "function go 3-4", "class Box 5-6"]);
  });

  it("ignores headings inside fenced code", () => {
    const src = "# Real\n```sh\n# not a heading\n```\n";
    expect(render(regexOutline(src))).toEqual(["heading Real 1-4"]);
  });
});
