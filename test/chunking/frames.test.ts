// Blocks that only frame others: a chunk holding one type inside its library's modules is
// named by that type, and what is left of a frame where the limits cut it (`end`s, a module's
// opening line, a file's opening comment mark) is no chunk.
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
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

  it("keeps a module's own name when it holds more than one type", async () => {
    const text = ["module Thor", "  VERSION = \"1.3.0\"", "", "  class Error < StandardError", "  end", "end", ""].join("\n");
    const [chunk] = await chunkFile("lib/thor/version.rb", text, options());
    expect(chunk).toMatchObject({ kind: "module", symbol: "Thor" });
  });
});
