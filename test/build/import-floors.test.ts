// Rooms stand on floors: a module may import from its own floor and the ones below, never from
// above, so a low room (the locks, the error lines, the config) can be read, tested and reused
// without the rooms built on it. Type-only imports count, as they do for circles.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { floorOf, importGraph, sourceFiles, upwardImports, type Floor } from "./import-graph.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_DIRS = ["core", "cli", "opencode-plugin", "tui", "mcp"];

/** Bottom first. A new room goes on the lowest floor whose rooms already hold what it imports. */
const FLOORS: Floor[] = [
  {
    name: "foundations",
    members: ["core/types.ts", "core/error-line.ts", "core/redact.ts", "core/text-hash.ts", "core/bounded-memo.ts", "core/word-runs.ts", "core/format-count.ts", "core/yield.ts", "core/little-endian.ts", "core/wasm-module.ts", "core/wasm-tiers.ts", "core/own-process.ts", "core/paths.ts", "core/path-class.ts", "core/config/", "core/locking/"],
  },
  { name: "files and stores", members: ["core/files/", "core/objectstore/", "core/store/", "core/telemetry/"] },
  { name: "chunking", members: ["core/chunking/"] },
  { name: "search", members: ["core/keyword/", "core/retrieval/", "core/memory/", "core/symbols/", "core/eval/"] },
  // The engine's contract (types only): the rooms below know nothing of it; the ones above log
  // through its Logger and run passes with its options.
  { name: "engine contract", members: ["core/engine-types.ts"] },
  { name: "services", members: ["core/logging/", "core/errors/", "core/embedding/", "core/ipc/"] },
  { name: "indexing", members: ["core/indexing/"] },
  { name: "description", members: ["core/description/"] },
  { name: "engine", members: ["core/engine.ts", "core/engine/", "core/index.ts", "core/web/"] },
  // The server plugin's tool definitions are shared by the CLI and the MCP server.
  { name: "plugin host", members: ["opencode-plugin/"] },
  { name: "hosts", members: ["cli/", "mcp/", "tui/"] },
];

const scratch = mkdtempSync(join(tmpdir(), "rag-import-floors-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("import floors", () => {
  const files = sourceFiles(SOURCE_DIRS.map((dir) => join(repo, dir)));

  it("every source file stands on one floor", () => {
    expect(files.length).toBeGreaterThan(100);
    const homeless = files.map((f) => relative(repo, f)).filter((f) => floorOf(f, FLOORS) < 0);
    expect(homeless, `files on no floor (add their room to FLOORS in ${relative(repo, fileURLToPath(import.meta.url))}):\n${homeless.join("\n")}`).toEqual([]);
    const twice = files.map((f) => relative(repo, f)).filter((f) => FLOORS.filter((floor) => floorOf(f, [floor]) === 0).length > 1);
    expect(twice, "files named by two floors").toEqual([]);
  });

  it("no module imports from a higher floor (core never imports a host)", () => {
    const upward = upwardImports(importGraph(files), repo, FLOORS);
    expect(upward, `imports from a higher floor:\n${upward.join("\n")}`).toEqual([]);
  });

  it("names an upward import, type-only or re-exported, with both floors", () => {
    const root = mkdtempSync(join(scratch, "tree-"));
    const tree: Record<string, string> = {
      "low/a.ts": 'import type { B } from "../high/b.js";\nexport type A = B;\n',
      "low/c.ts": 'export { b } from "../high/b.js";\n',
      "low/d.ts": 'export const d = () => import("../high/b.js");\n',
      "high/b.ts": 'import "../low/d.js";\nexport type B = string;\nexport const b = 1;\n',
    };
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const floors = [
      { name: "low", members: ["low/"] },
      { name: "high", members: ["high/"] },
    ];
    // A dynamic import defers loading on purpose; high -> low is downward.
    expect(upwardImports(importGraph(sourceFiles([root])), root, floors)).toEqual(["low/a.ts (low) -> high/b.ts (high)", "low/c.ts (low) -> high/b.ts (high)"]);
  });
});
