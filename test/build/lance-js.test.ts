// The built bundles load LanceDB's and Arrow's JavaScript from the one file the build makes of
// them (dist/lancedb-js.cjs): resolving and compiling the packages' ~200 files was ~100 ms of
// every searching process's start. The store must still work through it, with one Arrow.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const dir = mkdtempSync(join(tmpdir(), "rag-lance-js-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("LanceDB's JavaScript in the built library", () => {
  it("comes from dist/lancedb-js.cjs, and a table written and read through it holds the row", () => {
    ensureBuilt();
    const script = join(dir, "probe.mjs");
    writeFileSync(
      script,
      `import { createRequire } from "node:module";
import { openVectorStore } from ${JSON.stringify(join(repoRoot, "dist", "library.js"))};
const store = await openVectorStore({ uri: ${JSON.stringify(join(dir, "db"))}, tableName: "chunks", dimension: 3 });
const record = { id: "a1", content: "function shippingCost() {}", filePath: "src/ship.ts", startLine: 1, endLine: 1, language: "typescript", kind: "function", symbol: "shippingCost", context: "", contentHash: "h", description: "" };
await store.add([{ ...record, vector: new Float32Array([1, 0, 0]) }]);
const hits = await store.searchVector(new Float32Array([1, 0, 0]), 1);
const rows = await store.getByIds(["a1"]);
await store.close();
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify({ hits, rows, loaded }));
`,
    );
    const out = JSON.parse(execFileSync(process.execPath, [script], { encoding: "utf8", env: { ...process.env, LANCEDB_LOG: "error" } }));
    expect(out.hits.map((h: { id: string }) => h.id)).toEqual(["a1"]);
    expect(out.rows[0]).toMatchObject({ id: "a1", symbol: "shippingCost", filePath: "src/ship.ts" });
    const loaded = out.loaded as string[];
    expect(loaded).toContain(join(repoRoot, "dist", "lancedb-js.cjs"));
    // neither package's own files: one Arrow, compiled once
    expect(loaded.filter((f) => /node_modules[\\/](apache-arrow|@lancedb[\\/]lancedb)[\\/]/.test(f))).toEqual([]);
    expect(loaded.some((f) => f.endsWith(".node") && f.includes("lancedb"))).toBe(true);
  });
});
