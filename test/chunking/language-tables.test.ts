import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { AST_LANGUAGES } from "../../core/chunking/languages.js";
import { options } from "./helpers.js";

/**
 * A few lines of each language (keyed by the table's first extension) and the chunk they must
 * yield: a named unit proves the grammar loaded, the unit query compiled and `refine` ran.
 */
const SAMPLES: Record<string, { source: string; kind: string; symbol: string }> = {
  ".ts": { source: "export function add(a: number): number {\n  return a;\n}\n", kind: "function", symbol: "add" },
  ".tsx": { source: "export function Row() {\n  return <div />;\n}\n", kind: "function", symbol: "Row" },
  ".js": { source: "function add(a) {\n  return a;\n}\n", kind: "function", symbol: "add" },
  ".py": { source: "def add(a):\n    return a\n", kind: "function", symbol: "add" },
  ".java": { source: "class Cart {\n  int total() { return 0; }\n}\n", kind: "class", symbol: "Cart" },
  ".go": { source: "package main\n\nfunc Add(a int) int {\n\treturn a\n}\n", kind: "function", symbol: "Add" },
  ".rs": { source: "fn add(a: i32) -> i32 {\n    a\n}\n", kind: "function", symbol: "add" },
  ".c": { source: "int add(int a) {\n  return a;\n}\n", kind: "function", symbol: "add" },
  ".cpp": { source: "class Cart {\n  int total;\n};\n", kind: "class", symbol: "Cart" },
  ".cs": { source: "class Cart {\n  void Add() {}\n}\n", kind: "class", symbol: "Cart" },
  ".rb": { source: "def add(a)\n  a\nend\n", kind: "function", symbol: "add" },
  ".kt": { source: "fun add(a: Int): Int {\n  return a\n}\n", kind: "function", symbol: "add" },
  ".swift": { source: "func add(a: Int) -> Int {\n  return a\n}\n", kind: "function", symbol: "add" },
  ".json": { source: '{\n  "name": "cart"\n}\n', kind: "key", symbol: "name" },
  ".xml": { source: "<project>\n  <name>cart</name>\n</project>\n", kind: "element", symbol: "project" },
  ".html": { source: '<div id="main">\n  hi\n</div>\n', kind: "element", symbol: "div#main" },
  ".vue": { source: "<template>\n  <p>hi</p>\n</template>\n", kind: "element", symbol: "template" },
  ".svelte": { source: '<section id="app">\n  hi\n</section>\n', kind: "element", symbol: "section#app" },
  ".css": { source: ".button {\n  color: red;\n}\n", kind: "rule", symbol: ".button" },
  ".php": { source: "<?php\nfunction add($a) {\n  return $a;\n}\n", kind: "function", symbol: "add" },
  ".scala": { source: "class Cart {\n  def total: Int = 0\n}\n", kind: "class", symbol: "Cart" },
  ".sh": { source: "greet() {\n  echo hi\n}\n", kind: "function", symbol: "greet" },
  ".zig": { source: "fn add(a: i32) i32 {\n    return a;\n}\n", kind: "function", symbol: "add" },
  ".lua": { source: "local function add(a)\n  return a\nend\n", kind: "function", symbol: "add" },
  ".ex": { source: "defmodule Cart do\n  def add(a), do: a\nend\n", kind: "module", symbol: "Cart" },
  ".hs": { source: "add :: Int -> Int\nadd a = a\n", kind: "function", symbol: "add" },
  ".yaml": { source: "name: cart\n", kind: "key", symbol: "name" },
  ".toml": { source: "[server]\nport = 1\n", kind: "table", symbol: "server" },
  ".mm": { source: "@implementation Cart\n- (int)total {\n  return 0;\n}\n@end\n", kind: "class", symbol: "Cart" },
  ".sol": { source: "contract Vault {\n  uint256 total;\n}\n", kind: "class", symbol: "Vault" },
  ".ml": { source: "let add a b =\n  a + b\n", kind: "function", symbol: "add" },
  ".dart": { source: "int add(int a) {\n  return a;\n}\n", kind: "function", symbol: "add" },
  ".el": { source: "(defun cart-add (a)\n  (+ a 1))\n", kind: "function", symbol: "cart-add" },
  ".res": { source: "let add = (a, b) => {\n  a + b\n}\n", kind: "function", symbol: "add" },
  ".tf": { source: 'resource "aws_s3_bucket" "logs" {\n  bucket = "logs"\n}\n', kind: "resource", symbol: "aws_s3_bucket.logs" },
  ".hcl": { source: 'job "api" {\n  datacenters = ["dc1"]\n}\n', kind: "block", symbol: "job api" },
  ".ps1": { source: "function Get-Total($Items) {\n  $Items.Count\n}\n", kind: "function", symbol: "Get-Total" },
  ".bzl": { source: 'cc_library(\n    name = "util",\n)\n', kind: "target", symbol: "util" },
  ".mk": { source: "test:\n\tgo test ./...\n", kind: "target", symbol: "test" },
  ".r": { source: "add <- function(a, b) {\n  a + b\n}\n", kind: "function", symbol: "add" },
};

describe("language tables", () => {
  it("every table has a sample", () => {
    const missing = AST_LANGUAGES.map((spec) => spec.extensions[0]).filter((ext) => !SAMPLES[ext]);
    expect(missing, "add a sample for each new language table").toEqual([]);
  });

  for (const spec of AST_LANGUAGES) {
    const ext = spec.extensions[0];
    it(`${spec.grammar} (${ext}) parses its sample into a named unit`, async () => {
      const sample = SAMPLES[ext];
      if (!sample) return; // reported by the test above
      const chunks = await chunkFile(`sample/file${ext}`, sample.source, options({ minChars: 0 }));
      const seen = chunks.map((c) => `${c.language} ${c.kind}:${c.symbol}`);
      expect(seen, ext).toContain(`${spec.language} ${sample.kind}:${sample.symbol}`);
    });
  }
});
