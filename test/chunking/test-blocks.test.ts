// Test files are cut test by test: Jest/Vitest/Mocha suites and tests, RSpec examples and ExUnit
// tests are units named by their titles, and a title is never taken for a declared name.
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { declaredNames } from "../../core/chunking/pack.js";
import { keywordDocOf } from "../../core/keyword/index.js";
import { unitNames } from "../../core/retrieval/features.js";
import type { Chunk } from "../../core/types.js";
import { chunkFixture, options } from "./helpers.js";

const TS_TESTS = "../symbols/src/typescript-tests/inventory.test.ts";
const RSPEC = "../symbols/src/ruby-spec/invoice_spec.rb";

/** `kind symbol start-end | context` rows. */
function rows(chunks: Chunk[]): string[] {
  return chunks.map((c) => `${c.kind} ${c.symbol} ${c.startLine}-${c.endLine} | ${c.context}`);
}

describe("test blocks as units", () => {
  it("cuts a Vitest file at its tests, each named by its title inside its suites", async () => {
    const chunks = await chunkFixture(TS_TESTS, { minChars: 0, maxLines: 8 });
    expect(rows(chunks)).toEqual([
      "preamble  1-3 | ",
      "function item 5-5 | function item(sku: string)",
      "suite normalize 7-12 | suite \"normalize\"",
      "test trims the sku 14-16 | suite \"normalize\" > test \"trims the sku\"",
      "test trims %s 18-20 | suite \"normalize\" > test \"trims %s\"",
      "suite when the sku is empty 22-26 | suite \"normalize\" > suite \"when the sku is empty\"",
      "test restock adds one 29-31 | test \"restock adds one\"",
      // A route and a listener also take a string and a function: they are no tests.
      "block  33-37 | ",
    ]);
  });

  it("keeps a small suite whole, and packs neighbouring tests under their suite", async () => {
    const whole = await chunkFixture(TS_TESTS, { minChars: 0 });
    expect(rows(whole).find((r) => r.startsWith("suite "))).toBe("suite normalize 7-27 | suite \"normalize\"");
    const packed = await chunkFile("src/parser.test.ts", vitestFile(12), { ...options(), maxLines: 40 });
    const tests = packed.filter((c) => c.kind === "test");
    expect(tests.length).toBeGreaterThan(1);
    for (const c of tests) expect(c.context).toMatch(/^suite "Parser" > test "parses input \d+"(; test "parses input \d+")*$/);
    expect(tests.flatMap((c) => c.context.match(/parses input \d+/g) ?? [])).toHaveLength(12);
  });

  it("cuts an RSpec file at its examples; an example without a description stays in its group", async () => {
    const chunks = await chunkFixture(RSPEC, { minChars: 0, maxLines: 4 });
    expect(rows(chunks).filter((r) => /^(suite|test) /.test(r))).toEqual([
      "suite Billing::Invoice 4-5 | suite Billing::Invoice",
      "suite #total 7-7 | suite Billing::Invoice > suite \"#total\"",
      "test adds the taxed lines 8-10 | suite Billing::Invoice > suite \"#total\" > test \"adds the taxed lines\"",
      "suite without lines 12-13 | suite Billing::Invoice > suite \"#total\" > suite \"without lines\"",
      "test is zero 15-17 | suite Billing::Invoice > suite \"#total\" > suite \"without lines\" > test \"is zero\"",
    ]);
  });

  it("cuts an ExUnit module at its describe blocks and tests", async () => {
    const source = [
      "defmodule ParserTest do",
      "  use ExUnit.Case",
      "",
      '  describe "parse/1" do',
      "    @tag :slow",
      '    test "returns nothing", %{input: input} do',
      '      assert Parser.parse("") == []',
      "    end",
      "  end",
      "end",
      "",
    ].join("\n");
    const chunks = await chunkFile("test/parser_test.exs", source, options({ minChars: 0, maxLines: 4 }));
    const test = chunks.find((c) => c.kind === "test");
    expect(test && [test.symbol, test.startLine, test.endLine, test.context]).toEqual(["returns nothing", 5, 8, 'module ParserTest > suite "parse/1" > test "returns nothing"']);
  });

  it("cuts Dart's groups and Flutter's widget tests, and Pester's blocks, by their titles", async () => {
    const dart = [
      "void main() {",
      "  group('Parser', () {",
      "    test('parses empty input', () {",
      "      expect(parse(''), isEmpty);",
      "    });",
      "",
      "    testWidgets('shows the result', (tester) async {",
      "      await tester.pumpWidget(const ResultView());",
      "    });",
      "  });",
      "}",
      "",
    ].join("\n");
    const dartTests = (await chunkFile("test/parser_test.dart", dart, options({ minChars: 0, maxLines: 4 }))).filter((c) => c.kind === "test");
    expect(dartTests.map((c) => [c.symbol, c.startLine, c.context])).toEqual([
      ["parses empty input", 3, "function main() > suite 'Parser' > test 'parses empty input'"],
      ["shows the result", 7, "function main() > suite 'Parser' > test 'shows the result'"],
    ]);
    const pester = [
      "Describe 'Get-Planet' {",
      "    Context 'by name' {",
      "        It 'finds <Name>' -TestCases @(@{ Name = 'Earth' }) {",
      "            Get-Planet -Name $Name | Should -Not -BeNullOrEmpty",
      "        }",
      "    }",
      "}",
      "",
    ].join("\n");
    const pesterChunks = await chunkFile("tests/Get-Planet.Tests.ps1", pester, options({ minChars: 0, maxLines: 3 }));
    expect(pesterChunks.find((c) => c.kind === "test")?.context).toBe("suite 'Get-Planet' > suite 'by name' > test 'finds <Name>'");
  });

  it("cuts Go subtests with literal names, busted's and Pest's tests, by their titles", async () => {
    const go = 'package p\n\nfunc TestParse(t *testing.T) {\n\tt.Run("empty input", func(t *testing.T) {\n\t\tif Parse("") != nil {\n\t\t\tt.Fatal("want nil")\n\t\t}\n\t})\n\tfor _, tc := range cases {\n\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\t_ = tc\n\t\t})\n\t}\n}\n';
    const goChunks = await chunkFile("parse_test.go", go, options({ minChars: 0, maxLines: 5 }));
    // A subtest named by a variable (a table's row) stays in its function.
    expect(goChunks.filter((c) => c.kind === "test").map((c) => [c.symbol, c.startLine, c.endLine, c.context])).toEqual([["empty input", 4, 8, 'function TestParse(t *testing.T) > test "empty input"']]);
    const lua = 'describe("util", function()\n  before_each(function()\n    reset()\n  end)\n\n  it("lists mods", function()\n    assert(true)\n  end)\nend)\n';
    const luaTest = (await chunkFile("tests/util_spec.lua", lua, options({ minChars: 0, maxLines: 4 }))).find((c) => c.kind === "test");
    expect(luaTest && [luaTest.startLine, luaTest.endLine, luaTest.context]).toEqual([6, 8, 'suite "util" > test "lists mods"']);
    const php = "<?php\n\ndescribe('users', function () {\n    // A duplicate fails.\n    test('email is unique', function () {\n        create();\n    })->throws(Exception::class);\n});\n";
    const phpTest = (await chunkFile("tests/UsersTest.php", php, options({ minChars: 0, maxLines: 4 }))).find((c) => c.kind === "test");
    expect(phpTest && [phpTest.startLine, phpTest.endLine, phpTest.context]).toEqual([4, 7, "suite 'users' > test 'email is unique'"]);
  });

  it("cuts munit's, Kotest's and Quick's block-taking tests by their titles", async () => {
    const contexts = async (path: string, lines: string[]) =>
      (await chunkFile(path, lines.join("\n") + "\n", options({ minChars: 0, maxLines: 3 }))).filter((c) => c.kind === "test").map((c) => `${c.startLine}-${c.endLine} ${c.context}`);
    expect(await contexts("src/test/scala/DecoderSuite.scala", ["class DecoderSuite extends munit.FunSuite {", '  test("decodes an int") {', '    assertEquals(decode("1"), Right(1))', "  }", "}"])).toEqual([
      '2-4 class DecoderSuite > test "decodes an int"',
    ]);
    const kotest = ["class ParserTest : DescribeSpec({", '    describe("parse") {', '        it("returns nothing") {', '            parse("") shouldBe emptyList()', "        }", "    }", "})"];
    expect(await contexts("src/test/kotlin/ParserTest.kt", kotest)).toEqual(['3-5 class ParserTest > suite "parse" > test "returns nothing"']);
    const quick = ["class ParserSpec: QuickSpec {", "    override class func spec() {", '        describe("parse") {', '            it("returns nothing") {', '                expect(parse("")).to(beEmpty())', "            }", "        }", "    }", "}"];
    expect(await contexts("Tests/ParserSpec.swift", quick)).toEqual(['4-6 class ParserSpec > method spec > suite "parse" > test "returns nothing"']);
  });

  it("cuts GoogleTest's and Boost.Test's macros by the names they give their tests", async () => {
    const cc = [
      "#include <gtest/gtest.h>",
      "",
      "TEST(ParserTest, EmptyInput) {",
      '  EXPECT_TRUE(parse("").empty());',
      "}",
      "",
      "TEST_F(ParserFixture, NestedLists) {",
      '  EXPECT_EQ(parse("[[1]]").size(), 1u);',
      "}",
      "",
      "BOOST_AUTO_TEST_CASE(parses_numbers) {",
      '  BOOST_CHECK(parse("1").size() == 1);',
      "}",
      "",
      "int TEST_HELPER(int a, int b) { return a + b; }",
    ].join("\n");
    const chunks = await chunkFile("parser_test.cc", cc, options({ minChars: 0 }));
    expect(chunks.filter((c) => c.kind === "test").map((c) => [c.symbol, c.startLine, c.context])).toEqual([
      ["ParserTest.EmptyInput", 3, "test ParserTest.EmptyInput"],
      ["ParserFixture.NestedLists", 7, "test ParserFixture.NestedLists"],
      ["parses_numbers", 11, "test parses_numbers"],
    ]);
    // A function that merely shares a macro's shape is still a function.
    expect(chunks.find((c) => c.symbol === "TEST_HELPER")?.kind).toBe("function");
  });

  it("cuts Catch2's and doctest's test cases by their titles", async () => {
    const cc = [
      "#include <catch2/catch_test_macros.hpp>",
      "",
      "// Sizing and resizing.",
      'TEST_CASE("vectors can be sized", "[vector]") {',
      "  std::vector<int> v(5);",
      "  REQUIRE(v.size() == 5);",
      "}",
      "",
      'TEST_CASE_METHOD(DbFixture, "rows survive a reconnect") {',
      "  REQUIRE(reconnect());",
      "}",
      "",
      'TEST_SUITE("math") {',
      '  TEST_CASE("adds") {',
      "    CHECK(1 + 1 == 2);",
      "  }",
      "}",
    ].join("\n");
    const chunks = await chunkFile("vector_test.cpp", cc, options({ minChars: 0, maxLines: 5 }));
    expect(chunks.filter((c) => c.kind === "test" || c.kind === "suite").map((c) => [c.kind, c.symbol, c.startLine, c.endLine, c.context])).toEqual([
      ["test", "vectors can be sized", 3, 7, 'test "vectors can be sized"'],
      ["test", "rows survive a reconnect", 9, 11, 'test "rows survive a reconnect"'],
      ["suite", "math", 13, 17, 'suite "math"'],
    ]);
    // A suite too long for one chunk is cut at its tests.
    const suite = await chunkFile("math_test.cpp", cc.split("\n").slice(12).join("\n"), options({ minChars: 0, maxLines: 3 }));
    expect(suite.find((c) => c.kind === "test")?.context).toBe('suite "math" > test "adds"');
  });

  it("leaves a Gemfile's group alone: a suite describes a string, a class, a module or a method", async () => {
    const gems = 'group :test do\n  gem "rspec"\nend\n\ncontext "with a token" do\n  it { is_expected.to be_ok }\nend\n\ndescribe :assoc do\n  it "pairs" do\n  end\nend\n';
    const chunks = await chunkFile("spec/gems.rb", gems, options({ minChars: 0 }));
    expect(chunks.map((c) => `${c.kind} ${c.symbol} ${c.startLine}`)).toEqual(["preamble  1", "suite with a token 5", "suite :assoc 9"]);
  });

  it("never takes a title for a declaration: describe(\"normalize\") declares no normalize", async () => {
    const chunks = await chunkFixture(TS_TESTS, { minChars: 0, maxLines: 8 });
    const suite = chunks.find((c) => c.kind === "suite")!;
    expect(suite.symbol).toBe("normalize");
    expect(declaredNames(suite).names).toEqual([]);
    const record = { ...suite, id: "s", contentHash: "h", description: "" };
    const doc = keywordDocOf(record, suite.content);
    expect(doc.symbol).toBe("");
    expect(doc.declares).not.toContain("normalize");
    // The names compared with a question: the file's, as for unnamed code, not the title.
    expect(unitNames(record)).toBe("inventory.test");
    // The helper beside the suites still declares its name.
    const helper = chunks.find((c) => c.symbol === "item")!;
    expect(declaredNames(helper).names).toEqual(["item"]);
    expect(unitNames({ ...helper, id: "h", contentHash: "h", description: "" })).toBe("function item(sku: string)");
  });

  it("quotes a Zig test's title in its context, and declares nothing by it", async () => {
    const chunks = await chunkFile("src/point.zig", 'fn add(a: i32, b: i32) i32 {\n    return a + b;\n}\n\ntest "add sums" {\n    try expect(add(1, 2) == 3);\n}\n', options({ minChars: 0 }));
    const test = chunks.find((c) => c.kind === "test")!;
    expect([test.symbol, test.context]).toEqual(["add sums", 'test "add sums"']);
    expect(declaredNames(test).names).toEqual([]);
  });
});

/** A Vitest file of one suite holding `n` three-line tests. */
function vitestFile(n: number): string {
  const tests = Array.from({ length: n }, (_, i) => `  it("parses input ${i}", () => {\n    expect(parse("${i}")).toEqual([${i}]);\n  });`);
  return `describe("Parser", () => {\n${tests.join("\n\n")}\n});\n`;
}
