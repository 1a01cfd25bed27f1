// One copy of every vector: the bundled model (cheap to recompute) keeps no embedding cache;
// a chunk whose lines moved takes its vector from the row it replaces. A remote model (a fake
// Ollama on 127.0.0.1) keeps its cache: its vectors cost network time and money.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddingText } from "../../core/chunking/index.js";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { createLocalProvider } from "../../core/embedding/local.js";
import { EMBEDDING_CACHE_DIR, EmbeddingCache } from "../../core/indexing/embedding-cache.js";
import { openVectorStore } from "../../core/store/index.js";
import { startFakeOllama } from "../fakes/ollama.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";
import { engineFor, makeWorkspace, ollamaOverrides, trackWorkspaces, tsFunction } from "./helpers.js";

const tracked = trackWorkspaces();
let ollama: FakeHttpServer;
beforeAll(async () => {
  ollama = await startFakeOllama({ models: { "embed-a": 32 } });
});
afterAll(async () => {
  await ollama.close();
});

// One function a chunk (no packing), so that "the moved chunks" are exactly the old functions.
const ONE_PER_FUNCTION = { chunking: { packChars: 0 } };
const BUNDLED = { logging: { logFilePath: "" }, ...ONE_PER_FUNCTION };
const handlers = Array.from({ length: 6 }, (_, i) => tsFunction(`handler${i}Process`, `handler ${i} does step ${i} of the pipeline ${"x".repeat(200)}`)).join("\n");
const inserted = tsFunction("brandNewAuditTrail", `records who changed what ${"y".repeat(200)}`);

async function workspace(overrides: Record<string, unknown>) {
  const root = makeWorkspace({ "src/handlers.ts": handlers, "README.md": "# Pipeline\n\nHandlers run in order.\n" });
  tracked.roots.push(root);
  const engine = await engineFor(root, overrides);
  tracked.engines.push(engine);
  return { root, engine };
}

const cacheFiles = (stateDir: string): string[] => (existsSync(join(stateDir, EMBEDDING_CACHE_DIR)) ? readdirSync(join(stateDir, EMBEDDING_CACHE_DIR)) : []);

describe("vectors re-used from the table (bundled model)", () => {
  it("takes the vectors of moved chunks from their old rows and embeds only the new chunk, keeping no cache file", async () => {
    const { root, engine } = await workspace(BUNDLED);
    const first = await engine.index();
    expect(first.chunksEmbedded).toBe(first.chunksAdded);
    expect(cacheFiles(engine.stateDir)).toEqual([]);

    // A new function at the top moves every other chunk of the file: new ids, same texts.
    writeFileSync(join(root, "src/handlers.ts"), inserted + "\n" + handlers);
    const s = await engine.index();
    expect(s.filesIndexed).toBe(1);
    expect(s.chunksEmbedded).toBe(1);
    expect(s.chunksReused).toBe(s.chunksAdded - 1);
    expect(s.chunksReused).toBeGreaterThanOrEqual(6);
    expect(s.chunksFromCache).toBe(0);
    expect(cacheFiles(engine.stateDir)).toEqual([]);
    expect((await engine.search("brandNewAuditTrail", { topK: 1 }))[0]?.chunk.content).toContain("brandNewAuditTrail");
    expect((await engine.search("handler5Process", { topK: 1 }))[0]?.chunk.content).toContain("handler5Process");
    const storeUri = engine.storeUri;
    await engine.close();

    // Every stored vector, re-used or not, equals the model's own vector for its text.
    const { provider } = await createLocalProvider(DEFAULT_CONFIG.embedding, { root });
    const store = await openVectorStore({ uri: storeUri, tableName: DEFAULT_CONFIG.vectorStore.tableName, dimension: await provider!.dimension() });
    try {
      const ids = (await store.listAll()).map((r) => r.id);
      const records = await store.getByIds(ids);
      const stored = new Map((await store.vectorsByIds!(ids)).map((v) => [v.contentHash, v.vector]));
      const fresh = await provider!.embed(records.map((r) => embeddingText(r)), "document");
      expect(stored.size).toBe(records.length);
      records.forEach((r, i) => expect(Array.from(stored.get(r.contentHash)!)).toEqual(Array.from(fresh[i])));
    } finally {
      await store.close();
      await provider!.close?.();
    }
  });

  it("removes the cache file an older version kept for the bundled model at the next commit", async () => {
    const { engine } = await workspace(BUNDLED);
    await engine.index();
    const manifest = JSON.parse(readFileSync(join(engine.stateDir, "manifest.json"), "utf8")) as { provider: string; model: string; dimension: number };
    const leftover = EmbeddingCache.open(engine.stateDir, manifest.provider, manifest.model, manifest.dimension);
    leftover.set("ab".repeat(20), new Float32Array(manifest.dimension));
    leftover.flush();
    expect(existsSync(leftover.file)).toBe(true);
    // A pass with nothing to index still commits: the file goes.
    const s = await engine.index();
    expect(s.filesIndexed).toBe(0);
    expect(existsSync(leftover.file)).toBe(false);
  });
});

describe("the embedding cache (remote model)", () => {
  it("keeps a cache file and serves moved chunks from it, not from the table", async () => {
    const { root, engine } = await workspace(ollamaOverrides(ollama.url, "embed-a", ONE_PER_FUNCTION));
    await engine.index();
    const files = cacheFiles(engine.stateDir);
    expect(files).toHaveLength(1);
    const embedded = () => ollama.requestsTo("/api/embed").flatMap((r) => (r.body as { input: string[] }).input);
    const before = embedded().length;
    writeFileSync(join(root, "src/handlers.ts"), inserted + "\n" + handlers);
    const s = await engine.index();
    expect(s.chunksEmbedded).toBe(1);
    expect(s.chunksFromCache).toBe(s.chunksAdded - 1);
    expect(s.chunksReused).toBe(0);
    expect(embedded().slice(before)).toHaveLength(1);
    expect(embedded().slice(before)[0]).toContain("brandNewAuditTrail");
    expect(cacheFiles(engine.stateDir)).toEqual(files);
  });
});
