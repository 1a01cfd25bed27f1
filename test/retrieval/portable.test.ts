import { describe, expect, test } from "vitest";
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("the search path is portable", () => {
  test("keyword index, in-memory store and hybrid retrieval bundle for the browser with no Node built-ins", async () => {
    const entry = [
      'export * from "./core/keyword/index.ts";',
      'export * from "./core/retrieval/index.ts";',
      'export { MemoryVectorStore } from "./core/store/memory.ts";',
      'export * from "./core/store/filter.ts";',
    ].join("\n");
    const result = await build({
      stdin: { contents: entry, resolveDir: root, loader: "ts" },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile!.inputs);
    expect(inputs.some((p) => p.includes("lancedb") || p.startsWith("node:"))).toBe(false);
    expect(inputs.some((p) => p.includes("core/keyword/keyword-index.ts"))).toBe(true);
  });
});
