// Golden outputs of get_file_skeleton and find_usages, one small fixture per language in
// test/fixtures/symbols/src/<folder>/, expected text in test/fixtures/symbols/expected/: the exact
// text the agent receives, through the real grammars.
// UPDATE_GOLDEN=1 rewrites the expected files (review the diff before committing it).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../core/logging/index.js";
import { coreDeps } from "../../opencode-plugin/index.js";
import { runFileSkeleton } from "../../opencode-plugin/tools/file-skeleton.js";
import { runFindUsages } from "../../opencode-plugin/tools/find-usages.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";

const base = join(import.meta.dirname, "..", "fixtures", "symbols");
const dir = join(base, "src");

/** Fixture (one per folder, so a path hint covers it alone), its language, the symbol whose usages are checked. */
const FIXTURES: Array<[file: string, language: string, symbol: string]> = [
  ["typescript/sample.ts", "typescript", "normalize"],
  ["typescript-tests/inventory.test.ts", "typescript", "normalize"],
  ["tsx/sample.tsx", "typescript", "formatLabel"],
  ["javascript/sample.js", "javascript", "clone"],
  ["python/sample.py", "python", "parse_line"],
  ["java/Sample.java", "java", "count"],
  ["go/sample.go", "go", "Shout"],
  ["rust/sample.rs", "rust", "Point"],
  ["c/sample.c", "c", "grow"],
  ["c-header/stack.h", "c", "Stack"],
  ["cpp/sample.cpp", "cpp", "dot"],
  ["csharp/Sample.cs", "csharp", "Round"],
  ["ruby/sample.rb", "ruby", "tax"],
  ["ruby-spec/invoice_spec.rb", "ruby", "total"],
  ["elixir/cart.ex", "elixir", "sum"],
  ["elixir-tests/cart_test.exs", "elixir", "item"],
  ["kotlin/sample.kt", "kotlin", "square"],
  ["swift/sample.swift", "swift", "shift"],
  ["scala/sample.scala", "scala", "square"],
  ["php/sample.php", "php", "polite"],
  ["bash/sample.sh", "bash", "log"],
  ["markdown/sample.md", "markdown", "npm"],
  ["haskell/Sample.hs", "haskell", "area"],
  ["lua/sample.lua", "lua", "clamp"],
  ["zig/sample.zig", "zig", "absolute"],
  ["dart/sample.dart", "dart", "scale"],
  ["objc/Counter.m", "objc", "increment"],
  ["solidity/Counter.sol", "solidity", "increment"],
  ["ocaml/counter.ml", "ocaml", "increment"],
  ["elisp/counter.el", "elisp", "counter-increment"],
  ["rescript/Counter.res", "rescript", "increment"],
  ["terraform/main.tf", "terraform", "create_vpc"],
  ["powershell/build.ps1", "powershell", "Restore-Packages"],
  ["starlark/BUILD", "starlark", "service"],
  ["make/Makefile", "make", "BIN"],
  ["r/scale.R", "r", "scale_to"],
  // MATLAB shares `.m` with Objective-C: no grammar reads it, and the header does not say "objc".
  ["matlab/scaled.m", "text", "scaled"],
];

// No index: find_usages scans the workspace, as it does before the first pass.
const ws = new RagWorkspace(
  dir,
  {
    ...coreDeps,
    openEngine: async () => {
      throw new Error("no index in this test");
    },
  },
  { logger: silentLogger },
);

function golden(name: string, actual: string): void {
  const file = join(base, "expected", name);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) writeFileSync(file, actual + "\n");
  expect(actual + "\n").toBe(readFileSync(file, "utf8"));
}

describe.each(FIXTURES)("%s (%s)", (file, language, symbol) => {
  it("skeleton", async () => {
    const out = await runFileSkeleton(ws, file);
    expect(out.split("\n")[0]).toContain(`(${language}, `);
    golden(`${file.replace("/", "--")}.skeleton.txt`, out);
  });

  it(`usages of ${symbol}`, async () => {
    golden(`${file.replace("/", "--")}.usages.txt`, await runFindUsages(ws, { symbolName: symbol, pathHint: `${file.split("/")[0]}/` }));
  });
});
