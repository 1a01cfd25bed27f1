// A team-shared index built with the bundled model keeps no embedding cache in the bucket
// either: a cache file an older version uploaded for that model is removed by the next pass.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { EMBEDDING_CACHE_DIR, EmbeddingCache } from "../../core/indexing/embedding-cache.js";
import { S3ObjectStore } from "../../core/objectstore/s3.js";
import { startS3Server, type TestS3Server } from "../fakes/s3.js";
import { makeWorkspace, removeWorkspace, tsFunction } from "./helpers.js";

const URI = "s3://team-bundled/projects/demo";
let s3: TestS3Server;
let root: string;
let engine: Engine;

beforeAll(async () => {
  s3 = await startS3Server("team-bundled");
  root = makeWorkspace({ "src/a.ts": tsFunction("computeLedgerTotal", "sums the ledger"), "src/b.ts": tsFunction("renderInvoice", "lays out an invoice") });
  engine = await openEngine({
    root,
    overrides: { vectorStore: { path: URI, storageOptions: s3.storageOptions }, autoIndex: { enabled: false }, logging: { level: "error", logFilePath: "" } },
  });
});
afterAll(async () => {
  await engine?.close().catch(() => undefined);
  if (root) removeWorkspace(root);
  await s3?.close();
});

async function withBucket<T>(use: (store: S3ObjectStore) => Promise<T>): Promise<T> {
  const store = new S3ObjectStore(URI, s3.storageOptions);
  try {
    return await use(store);
  } finally {
    store.close();
  }
}
const cacheKeys = () => withBucket(async (b) => (await b.list("rag-state/")).map((o) => o.key).filter((k) => k.includes(`/${EMBEDDING_CACHE_DIR}/`)));

describe("a shared index with the bundled model", () => {
  it("uploads no embedding cache, and removes one an older version left in the bucket", async () => {
    const first = await engine.index();
    expect(first.chunksEmbedded).toBeGreaterThan(0);
    expect(await cacheKeys()).toEqual([]);

    const manifest = JSON.parse(readFileSync(join(engine.stateDir, "manifest.json"), "utf8")) as { provider: string; model: string; dimension: number };
    const leftover = EmbeddingCache.open(engine.stateDir, manifest.provider, manifest.model, manifest.dimension);
    leftover.set("cd".repeat(20), new Float32Array(manifest.dimension));
    leftover.flush();
    const key = `rag-state/${EMBEDDING_CACHE_DIR}/${basename(leftover.file)}`;
    await withBucket((b) => b.put(key, readFileSync(leftover.file)));
    expect(await cacheKeys()).toEqual([key]);

    await engine.index();
    expect(await cacheKeys()).toEqual([]);
    expect(existsSync(leftover.file)).toBe(false);
  });
});
