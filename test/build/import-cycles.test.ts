// Modules that import each other load in an order that depends on who is imported first, and
// cannot be split or bundled on their own: no circle may come back among our sources.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles, importGraph, sourceFiles } from "./import-graph.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_DIRS = ["core", "cli", "opencode-plugin", "tui", "mcp"];

const scratch = mkdtempSync(join(tmpdir(), "rag-import-cycles-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(scratch, "tree-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("import circles", () => {
  it("none among the sources of core, cli, opencode-plugin, tui and mcp", () => {
    const files = sourceFiles(SOURCE_DIRS.map((dir) => join(repo, dir)));
    expect(files.length).toBeGreaterThan(100);
    const cycles = importCycles(importGraph(files), repo).map((cycle) => cycle.join(" -> "));
    expect(cycles, `import circles:\n${cycles.join("\n")}`).toEqual([]);
  });

  it("finds a circle through type-only imports and re-exports, and names its files in order", () => {
    const root = writeTree({
      "a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
      "b.ts": 'export { c } from "./sub/c.js";\nexport type B = string;\n',
      "sub/c.tsx": 'import "../a.js";\nexport const c = 1;\n',
      "d.ts": 'import { c } from "./sub/c.js";\nexport const d = () => import("./e.js");\n',
      "e.ts": 'import { d } from "./d.js";\nexport const e = d;\n',
    });
    const cycles = importCycles(importGraph(sourceFiles([root])), root);
    // d -> e is a dynamic import: deferred on purpose, not a circle.
    expect(cycles).toEqual([["a.ts", "b.ts", "sub/c.tsx", "a.ts"]]);
  });
});
