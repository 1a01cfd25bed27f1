// The browser embedder on the bundled model takes the same runtime-free path as Node: given the
// model folder over HTTP (a fetch answered from disk here), it gives Node's vectors. The page
// itself is tested in Chromium by test/web.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLED_MODEL_ID, DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { createBrowserEmbedder } from "../../core/embedding/browser.js";
import { createEmbeddingProvider } from "../../core/embedding/index.js";
import { modelsDir } from "../../core/paths.js";

const realFetch = globalThis.fetch;
const requested: string[] = [];
beforeAll(() => {
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const url = String(input);
    requested.push(url);
    if (!url.startsWith("/models/")) return new Response("not found", { status: 404 });
    try {
      return new Response(readFileSync(join(modelsDir(), url.slice("/models/".length))));
    } catch {
      return new Response("not found", { status: 404 });
    }
  }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

describe("browser embedder with the bundled model", () => {
  it("computes Node's vectors from the table, without onnxruntime-web's wasm", async () => {
    const web = await createBrowserEmbedder({ modelsUrl: "/models/", modelId: BUNDLED_MODEL_ID, ortUrl: "/ort/" });
    const node = (await createEmbeddingProvider(DEFAULT_CONFIG, { root: modelsDir() })).provider!;
    const texts = ["where are embeddings batched", "function getUserById(id: string) { return users.get(id); }", "Größe berechnen", "", "word ".repeat(2000)];
    const [a, b] = [await web.embed(texts, "query"), await node.embed(texts, "query")];
    texts.forEach((_, i) => {
      expect(a[i].length).toBe(256);
      expect(Array.from(a[i])).toEqual(Array.from(b[i]));
    });
    expect(requested.filter((u) => !u.startsWith("/models/"))).toEqual([]);
    await node.close?.();
  });
});
