// The package's library entry: one-call conveniences and chunkers registered at run time,
// which the indexer must use for the files they claim (never a worker that lacks them).
import { afterEach, describe, expect, it } from "vitest";
import { createIndexer, registerChunker, search } from "../../core/index.js";
import type { Chunk, Chunker } from "../../core/types.js";
import { clearCustomChunkers } from "../../core/chunking/index.js";
import { makeWorkspace, removeWorkspace } from "./helpers.js";

const roots: string[] = [];
afterEach(() => {
  clearCustomChunkers();
  for (const r of roots.splice(0)) removeWorkspace(r);
});

const overrides = { embedding: { provider: "local", model: "./no-such-model" }, logging: { logFilePath: "" } };

/** A chunker for a made-up "recipe" format: one chunk per "recipe NAME" block. */
const recipeChunker: Chunker = {
  language: "recipe",
  async chunk(filePath: string, content: string): Promise<Chunk[]> {
    const lines = content.split("\n");
    const chunks: Chunk[] = [];
    lines.forEach((line, i) => {
      const m = /^recipe (\w+)/.exec(line);
      if (!m) return;
      let end = i;
      while (end + 1 < lines.length && !lines[end + 1].startsWith("recipe ")) end++;
      chunks.push({ filePath, startLine: i + 1, endLine: end + 1, language: "recipe", kind: "recipe", symbol: m[1], context: `recipe ${m[1]}`, content: lines.slice(i, end + 1).join("\n") });
    });
    return chunks;
  },
};

describe("library entry", () => {
  it("indexes with createIndexer and answers with search, using a chunker registered at run time", async () => {
    const root = makeWorkspace({
      "kitchen/soups.recipe": "recipe tomatoSoup\n  tomatoes, basil, simmer\nrecipe lentilStew\n  lentils, cumin, slow cook\n",
      "src/app.ts": "export function serveDinner() { return 'soup'; }\n",
    });
    roots.push(root);
    registerChunker(recipeChunker, [".recipe"], () => undefined);
    const summary = await createIndexer({ root, overrides }).index();
    expect(summary.filesIndexed).toBe(2);
    const hits = await search("lentilStew cumin", { root, overrides, topK: 3 });
    expect(hits[0].chunk).toMatchObject({ filePath: "kitchen/soups.recipe", kind: "recipe", symbol: "lentilStew", startLine: 3, endLine: 5 });
  });
});
