// A grammar that throws in the middle of a parse costs that one file its structure. In a file
// of its own: it loads the bash grammar without its repair, and once one copy of a grammar is
// loaded the tree-sitter runtime links any later copy's scanner to the first one.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chunkFile, setGrammarSource } from "../../core/chunking/index.js";
import { readGrammarFile } from "../../core/chunking/grammar-files-node.js";
import { DEPLOY_SH, options, outline } from "./helpers.js";


describe("a grammar that throws while parsing", () => {
  it("costs only that file its structure: the next file gets a fresh parser", async () => {
    // The shipped bash grammar as it is on disk (a path is loaded as is, without the repair that
    // renames its `isalpha` import): any heredoc makes its scanner throw mid-parse.
    const raw = join(process.cwd(), "node_modules/tree-sitter-wasms/out/tree-sitter-bash.wasm");
    setGrammarSource(async (file) => (file === "tree-sitter-bash.wasm" ? raw : readGrammarFile(file)));
    try {
      const warnings: string[] = [];
      const warn = (w: { filePath: string; message: string }) => warnings.push(`${w.filePath}: ${w.message}`);
      const broken = await chunkFile("scripts/deploy.sh", DEPLOY_SH, options({ minChars: 0 }), warn);
      expect(broken.map((c) => c.kind), JSON.stringify(warnings)).toEqual(["lines"]);
      expect(broken.map((c) => c.content).join("\n")).toContain("deploy_target");
      expect(warnings).toEqual(["scripts/deploy.sh: bash chunking failed (resolved is not a function); indexed as line windows"]);
      const next = await chunkFile("scripts/ok.sh", "greet() {\n  echo hi\n}\n", options({ minChars: 0 }), warn);
      expect(outline(next)).toEqual(["function greet 1-3"]);
      expect(warnings).toHaveLength(1);
    } finally {
      setGrammarSource(null);
    }
  });
});

