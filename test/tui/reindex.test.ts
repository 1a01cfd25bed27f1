// "Press r to re-index" starts a real pass of the package's CLI in the workspace, in the
// background, and reports when it cannot.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readManifest } from "../../core/indexing/manifest.js";
import { startReindex } from "../../tui/reindex.js";
import { loadWorkspaceConfig } from "../../tui/workspace.js";

let root: string | null = null;

/** Paths the committed manifest (in the folder of `manifestFile`) lists. */
function indexedPaths(manifestFile: string): string[] {
  const read = readManifest(join(manifestFile, ".."));
  return read.status === "ok" ? Object.keys(read.manifest.files) : [];
}
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

test("starts an index pass of the workspace that commits a manifest", async () => {
  root = mkdtempSync(join(tmpdir(), "rag-tui-reindex-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "cart.ts"), "export function addToCart(id: string, qty: number) {\n  return { id, qty };\n}\n");
  const errors: string[] = [];
  startReindex(root, (m) => errors.push(m));
  const manifest = join(loadWorkspaceConfig(root).stateDir, "manifest.json");
  for (let i = 0; i < 300 && !existsSync(manifest) && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 200));
  expect(errors).toEqual([]);
  expect(indexedPaths(manifest)).toContain("src/cart.ts");
}, 90_000);

test("without node on PATH, the running Bun runs the pass (OpenCode's own runtime)", async () => {
  root = mkdtempSync(join(tmpdir(), "rag-tui-reindex-"));
  writeFileSync(join(root, "notes.md"), "# Shipping\n\nOrders ship within two days.\n");
  const errors: string[] = [];
  const path = process.env.PATH;
  process.env.PATH = "/nonexistent";
  try {
    startReindex(root, (m) => errors.push(m));
    const manifest = join(loadWorkspaceConfig(root).stateDir, "manifest.json");
    for (let i = 0; i < 300 && !existsSync(manifest) && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 200));
    expect(errors).toEqual([]);
    expect(indexedPaths(manifest)).toContain("notes.md");
  } finally {
    process.env.PATH = path;
  }
}, 90_000);
