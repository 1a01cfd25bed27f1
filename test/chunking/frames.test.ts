// Blocks that only frame others: a chunk holding one type inside its library's modules is
// named by that type, and what is left of a frame where the limits cut it (`end`s, a module's
// opening line, a file's opening comment mark) is no chunk.
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { declaredNames } from "../../core/chunking/pack.js";
import { options } from "./helpers.js";

/** A RuboCop-style cop: a magic comment, three modules, one class of `methods` methods. */
function cop(methods: number): string {
  const body: string[] = [];
  for (let i = 0; i < methods; i++) body.push(`        def check_${i}(node)`, `          return if node.nil?`, `          add_offense(node, message: "m${i}")`, `        end`, ``);
  return [
    "# frozen_string_literal: true",
    "",
    "module RuboCop",
    "  module Cop",
    "    module Style",
    "      # Checks for numeric comparisons that a predicate method could replace.",
    "      class ZeroLengthPredicate < Base",
    "        MSG = 'Use `empty?` instead.'",
    "",
    ...body,
    "      end",
    "    end",
    "  end",
    "end",
    "",
  ].join("\n");
}

describe("frames", () => {
  it("names a class nested in its library's modules by the class, the modules in its context", async () => {
    const chunks = await chunkFile("lib/rubocop/cop/style/zero_length_predicate.rb", cop(5), options());
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({
      kind: "class",
      symbol: "ZeroLengthPredicate",
      context: "module RuboCop > module Cop > module Style > class ZeroLengthPredicate",
    });
  });

  it("leaves no chunk of only `end`s, a module's opening line or the file's comment mark where the class fills the limit", async () => {
    // 23 methods: the class and its doc comment are 120 lines, the limit: the modules around it no longer fit.
    const text = cop(23);
    const chunks = await chunkFile("lib/rubocop/cop/style/zero_length_predicate.rb", text, options());
    const bare = chunks.filter((c) => c.content.split("\n").every((l) => /^\s*(end|module \w+|# frozen_string_literal: true)?\s*$/.test(l)));
    expect(bare.map((c) => `${c.startLine}-${c.endLine} ${c.content.trim()}`)).toEqual([]);
    const klass = chunks.find((c) => c.symbol === "ZeroLengthPredicate");
    expect(klass?.context).toBe("module RuboCop > module Cop > module Style > class ZeroLengthPredicate");
    // Every line with something to search is still in a chunk.
    const lines = text.split("\n");
    const covered = new Set(chunks.flatMap((c) => Array.from({ length: c.endLine - c.startLine + 1 }, (_, i) => c.startLine + i)));
    const lost = lines.map((l, i) => (l.trim() && !covered.has(i + 1) ? l.trim() : null)).filter((l) => l !== null);
    expect(new Set(lost)).toEqual(new Set(["# frozen_string_literal: true", "module RuboCop", "module Cop", "module Style", "end"]));
    expect(klass).toMatchObject({ startLine: 6, endLine: 125 });
  });

  it("names a type inside a partial class by the type (C#)", async () => {
    const text = [
      "namespace Dapper",
      "{",
      "    public static partial class SqlMapper",
      "    {",
      "        /// <summary>",
      "        /// Implements this interface to provide custom member mapping.",
      "        /// </summary>",
      "        public interface IMemberMap",
      "        {",
      "            string ColumnName { get; }",
      "            Type MemberType { get; }",
      "        }",
      "    }",
      "}",
    ].join("\n");
    const [chunk] = await chunkFile("Dapper/SqlMapper.IMemberMap.cs", text, options());
    expect(chunk).toMatchObject({ kind: "interface", symbol: "IMemberMap", context: "namespace Dapper > class SqlMapper > interface IMemberMap" });
  });

  it("gives a Ruby class the doc comment above it, also as its module's first statement", async () => {
    const text = ["module Thor", "  # Raised when a command was not found.", "  class UndefinedCommandError < Error", "    def initialize(command)", "      super", "    end", "  end", "", "  # Raised when a command's arguments are wrong.", "  class InvocationError < Error", "  end", "end", ""].join("\n");
    const chunks = await chunkFile("lib/thor/error.rb", text, options({ maxLines: 6, minChars: 0 }));
    expect(chunks.map((c) => `${c.symbol} ${c.startLine}-${c.endLine}`)).toEqual(["UndefinedCommandError 2-7", "InvocationError 9-11"]);
  });

  it("keeps a Kotlin class around its companion object, which has no name of its own", async () => {
    const text = ["class Registry {", "    companion object {", "        fun create(): Registry = Registry()", "    }", "}", ""].join("\n");
    const [chunk] = await chunkFile("src/Registry.kt", text, options());
    expect(chunk).toMatchObject({ kind: "class", symbol: "Registry", context: "class Registry" });
  });

  it("lists a framed type in a pack by the type", async () => {
    const text = ["impl Foo {", "}", "", "mod inner {", "    pub struct Point {", "        x: i32,", "    }", "}", ""].join("\n");
    const [chunk] = await chunkFile("src/lib.rs", text, options({ packChars: 2500 }));
    expect(chunk).toMatchObject({ symbol: "Point", context: "impl Foo; struct Point" });
  });

  it("leaves no chunk of a class reopened around a type of its own, but keeps a class's own opening line", async () => {
    const methods = (n: number) => Array.from({ length: n }, (_, i) => [`    def value_${i}`, `      @values.fetch(${i}) { raise ArgumentError, "no value ${i}" }`, `    end`, ``]).flat();
    // `class Thor` in each file of the library, the class itself declared in lib/thor.rb.
    const reopened = ["class Thor", "  class Option < Argument", "    attr_reader :aliases", "", ...methods(30), "  end", "end", ""].join("\n");
    const chunks = await chunkFile("lib/thor/parser/option.rb", reopened, options());
    expect(chunks.filter((c) => c.content.trim() === "class Thor")).toEqual([]);
    expect(chunks[0].startLine).toBe(2);
    expect(chunks[0].context).toMatch(/^class Thor > class Option > method value_0/);
    // A class opening on methods of its own declares itself there: that line stays in a chunk.
    const declared = ["class Registry", "  def initialize", "    @values = []", "  end", "", ...methods(30).map((l) => l.slice(2)), "end", ""].join("\n");
    const lines = (await chunkFile("lib/registry.rb", declared, options())).flatMap((c) => c.content.split("\n"));
    expect(lines).toContain("class Registry");
    // Java's outer class around a nested one is declared there: its opening line stays too.
    const nested = Array.from({ length: 130 }, (_, i) => `        public String part${i}() { return parts.get(${i}); }`);
    const java = ["public class Outer {", "    public static class Builder {", ...nested, "    }", "    public static class Parser {", ...nested, "    }", "}", ""].join("\n");
    const javaLines = (await chunkFile("src/Outer.java", java, options())).flatMap((c) => c.content.split("\n"));
    expect(javaLines).toContain("public class Outer {");
  });

  it("leaves no chunk of a C# partial class opened around nested types in one file of the part", async () => {
    const type = (name: string) => [
      `        /// <summary>Describes one ${name} of a row.</summary>`,
      `        private sealed class ${name} : PropertyDescriptor`,
      "        {",
      ...Array.from({ length: 130 }, (_, i) => `            public override string Describe${i}(object row) => row.ToString() + "${name}${i}";`),
      "        }",
    ];
    const text = ["namespace Dapper", "{", "    public static partial class SqlMapper", "    {", ...type("RowDescriptor"), "", ...type("ColumnDescriptor"), "    }", "}", ""].join("\n");
    const chunks = await chunkFile("Dapper/SqlMapper.Descriptors.cs", text, options({ packChars: 2500 }));
    // Neither the namespace's opening nor the class's is a chunk of its own; the types' chunks name both.
    expect(chunks[0].content).toMatch(/^ {8}\/\/\/ <summary>Describes one RowDescriptor/);
    expect(chunks.filter((c) => c.content.includes("partial class SqlMapper"))).toEqual([]);
    expect(chunks.map((c) => c.context.split(" > ").slice(0, 3).join(" > "))).toEqual(
      chunks.map((c) => `namespace Dapper > class SqlMapper > class ${c.startLine < 140 ? "Row" : "Column"}Descriptor`),
    );
  });

  it("names `class << self` as written in the context of the methods it holds", async () => {
    const methods = Array.from({ length: 30 }, (_, i) => [`    def option_${i}(name)`, `      @options[name] ||= Option.new(name, index: ${i})`, `    end`, ``]).flat();
    const text = ["class Thor", "  class << self", ...methods, "  end", "end", ""].join("\n");
    const chunks = await chunkFile("lib/thor.rb", text, options());
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.context).toMatch(/^class Thor > class << self > method option_\d+\(name\)/);
    // It declares nothing of its own: the methods' names, no `<<` around them.
    const last = declaredNames(chunks[chunks.length - 1]);
    expect(last.parent).toBeNull();
    expect(last.names).toContain("option_29");
  });

  it("names Kotlin's unnamed `companion object` as written, a named one by its name", async () => {
    const members = Array.from({ length: 80 }, (_, i) => [`        fun current${i}(): Transaction = managers.getValue(${i}).current()`, ""]).flat();
    const text = (header: string) => ["class TransactionManager {", `    ${header} {`, ...members, "    }", "}", ""].join("\n");
    const unnamed = await chunkFile("src/TransactionManager.kt", text("companion object"), options());
    const holding = unnamed.filter((c) => c.content.includes("fun current"));
    expect(holding.length).toBeGreaterThan(1);
    for (const chunk of holding) expect(chunk.context).toMatch(/^class TransactionManager > companion object > method current\d+\(\)/);
    expect(declaredNames(unnamed[unnamed.length - 1]).parent).toBeNull();
    const named = await chunkFile("src/TransactionManager.kt", text("companion object Registry"), options());
    expect(named.find((c) => c.content.includes("fun current0"))?.context).toMatch(/^class TransactionManager > object Registry > method current0\(\)/);
  });

  it("keeps a module's own name when it holds more than one type", async () => {
    const text = ["module Thor", "  VERSION = \"1.3.0\"", "", "  class Error < StandardError", "  end", "end", ""].join("\n");
    const [chunk] = await chunkFile("lib/thor/version.rb", text, options());
    expect(chunk).toMatchObject({ kind: "module", symbol: "Thor" });
  });
});
