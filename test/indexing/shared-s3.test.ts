// A team-shared index on S3-compatible storage, end to end: a real S3 server (s3rver on
// 127.0.0.1, test/fakes/s3.ts), LanceDB's own S3 support for the table, and an embedding model
// on a fake Ollama that counts what it embeds. Workspace A indexes into the bucket; B and C are
// other clones (other folders, other mtimes, empty state folders) that query it, keep it
// current without re-embedding unchanged chunks, and race each other as writers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { IndexBusyError } from "../../core/locking/busy.js";
import { S3ObjectStore } from "../../core/objectstore/s3.js";
import { openLanceStore } from "../../core/store/lancedb.js";
import { startFakeOllama } from "../fakes/ollama.js";
import { closedPort, type FakeHttpServer } from "../fakes/http-fake.js";
import { startS3Server, type TestS3Server } from "../fakes/s3.js";
import { makeWorkspace, removeWorkspace, tsFunction } from "./helpers.js";

let s3: TestS3Server;
let ollama: FakeHttpServer;
const roots: string[] = [];
const engines: Engine[] = [];
const URI = "s3://team-index/projects/demo";

function files(): Record<string, string> {
  const out: Record<string, string> = {
    "src/tokens.ts": `// Session tokens.\nexport function verifySessionToken(token: string, secret: string): boolean {\n  const [payload, signature] = token.split(".");\n  return signature === hmacSha256(payload, secret);\n}\n\nfunction hmacSha256(data: string, key: string): string {\n  return data + key;\n}\n`,
    "src/weather.py": `class WeatherStation:\n    """Collects temperature readings from a station."""\n\n    def __init__(self):\n        self.readings = []\n\n    def record_temperature(self, celsius):\n        self.readings.append(celsius)\n`,
    "docs/deploy.md": `# Deployment\n\nBuild the container image, push it to the registry and roll out the kubernetes deployment.\n`,
  };
  for (let i = 0; i < 12; i++) out[`src/util/helper${i}.ts`] = tsFunction(`helperNumber${i}`, `doubles the value for caller ${i}`);
  return out;
}

/** Another clone: the same files in another folder, written now (so with other mtimes). */
function cloneOf(root: string): string {
  const dir = mkdtempSync(join(tmpdir(), "rag-s3-clone-"));
  cpSync(root, dir, { recursive: true, filter: (src) => !src.includes(".opencode") });
  roots.push(dir);
  return dir;
}

async function open(root: string): Promise<Engine> {
  const engine = await openEngine({
    root,
    overrides: {
      embedding: { provider: "ollama", model: "nomic-embed-text", baseUrl: ollama.url, batchSize: 8, maxRetries: 0 },
      vectorStore: { path: URI, storageOptions: s3.storageOptions },
      autoIndex: { enabled: false },
      logging: { level: "error", logFilePath: "" },
    },
  });
  engines.push(engine);
  return engine;
}

/** Texts the embedding server has been asked to embed so far (not counting each engine's one-off dimension probe). */
function embedded(): number {
  const inputs = ollama.requestsTo("/api/embed").flatMap((r) => (r.body as { input: string[] }).input ?? []);
  return inputs.filter((t) => !t.endsWith("dimension probe")).length;
}

async function bucketKeys(): Promise<string[]> {
  const store = new S3ObjectStore(URI, s3.storageOptions);
  try {
    return (await store.list("")).map((o) => o.key);
  } finally {
    store.close();
  }
}

/** The ETag of the bucket's manifest: it changes only when a pass commits. */
async function manifestEtag(): Promise<string | null> {
  const store = new S3ObjectStore(URI, s3.storageOptions);
  try {
    const got = await store.get("rag-state/manifest.json");
    return got && got !== "unchanged" ? got.etag : null;
  } finally {
    store.close();
  }
}

/** Rows in the bucket's table, read by a LanceDB handle of its own. */
async function tableRows(): Promise<number> {
  const store = await openLanceStore({ uri: URI, tableName: "chunks", dimension: null, storageOptions: { ...s3.storageOptions, allow_http: "true" } });
  try {
    return await store.count();
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  s3 = await startS3Server("team-index");
  ollama = await startFakeOllama();
});

afterAll(async () => {
  for (const e of engines) await e.close().catch(() => undefined);
  for (const r of roots) removeWorkspace(r);
  await ollama?.close();
  await s3?.close();
});

describe("a team-shared index on S3-compatible storage", () => {
  let a: string;
  let engineA: Engine;
  let totalChunks = 0;

  it("indexes workspace A into the bucket: table, manifest, keyword index and embedding cache side by side", async () => {
    a = makeWorkspace(files(), "rag-s3-a-");
    roots.push(a);
    engineA = await open(a);
    const before = embedded();
    const summary = await engineA.index();
    expect(summary.errors).toEqual([]);
    expect(summary.chunksEmbedded).toBeGreaterThan(10);
    expect(embedded() - before).toBe(summary.chunksEmbedded);
    totalChunks = summary.chunksAdded;

    const keys = await bucketKeys();
    expect(keys).toContain("rag-state/manifest.json");
    expect(keys.some((k) => /^rag-state\/keyword-\d+-[0-9a-f]{12}\.bin$/.test(k))).toBe(true);
    expect(keys.some((k) => k.startsWith("rag-state/embedding-cache/") && k.endsWith(".bin"))).toBe(true);
    expect(keys.some((k) => k.startsWith("chunks.lance/_versions/"))).toBe(true);
    // The lock is gone once the pass is over.
    expect(keys).not.toContain("rag-state/index.lock");
    expect(await tableRows()).toBe(totalChunks);
    // Nothing of the index is written into the workspace besides the local mirror.
    expect(existsSync(join(a, ".opencode", "rag_db"))).toBe(false);
  });

  it("answers queries from a second clone B that never indexed, without embedding a single chunk", async () => {
    const b = cloneOf(a);
    const engineB = await open(b);
    const before = embedded();
    const hits = await engineB.search("verifySessionToken", { topK: 3 });
    expect(hits[0]?.chunk.filePath).toBe("src/tokens.ts");
    // Only the query itself was embedded.
    expect(embedded() - before).toBe(1);
    const status = await engineB.status({ countPending: false });
    expect(status.chunks).toBe(totalChunks);
    expect(status.manifestStatus).toBe("ok");
  });

  let b: string;

  it("keeps it current from clone B: only the new chunks are embedded, and A sees them", async () => {
    b = cloneOf(a);
    writeFileSync(join(b, "src/billing.ts"), tsFunction("computeInvoiceTotal", "sums the invoice lines with tax"));
    writeFileSync(join(b, "docs/deploy.md"), `# Deployment\n\nBuild the container image, push it to the registry and roll out the kubernetes deployment.\n\nRoll back with helm rollback when the canary fails.\n`);
    const engineB = await open(b);
    const before = embedded();
    const summary = await engineB.index();
    expect(summary.rebuildReason).toBeNull();
    expect(summary.errors).toEqual([]);
    // Every other file has another mtime in this clone: read and hashed, found unchanged, not re-chunked.
    expect(summary.filesUnchanged).toBe(Object.keys(files()).length - 1);
    expect(summary.filesIndexed).toBe(2);
    expect(summary.chunksEmbedded).toBeGreaterThan(0);
    expect(summary.chunksEmbedded).toBeLessThanOrEqual(3);
    expect(embedded() - before).toBe(summary.chunksEmbedded);

    // B's next pass knows its own mtimes again: it opens no file and writes nothing to the bucket.
    const manifestBefore = await manifestEtag();
    const again = await engineB.index();
    expect(again.bytesRead).toBe(0);
    expect(again.filesIndexed).toBe(0);
    expect(await manifestEtag()).toBe(manifestBefore);

    // A's long-lived engine picks up B's commit from the bucket on its next searches.
    const deadline = Date.now() + 10_000;
    let found: string[] = [];
    while (Date.now() < deadline) {
      found = (await engineA.search("computeInvoiceTotal", { topK: 3 })).map((h) => h.chunk.filePath);
      if (found[0] === "src/billing.ts") break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(found[0]).toBe("src/billing.ts");
  });

  it("serves vectors from the bucket's embedding cache to a fresh clone C", async () => {
    // C has A's original deploy.md, whose chunks B replaced: C re-indexes that file, and its
    // vectors come from the cache A filled, which C never had locally.
    const c = cloneOf(a);
    const engineC = await open(c);
    const before = embedded();
    const summary = await engineC.index();
    expect(summary.rebuildReason).toBeNull();
    expect(summary.filesIndexed).toBeGreaterThanOrEqual(1);
    expect(summary.chunksFromCache).toBeGreaterThan(0);
    expect(summary.chunksEmbedded).toBe(0);
    expect(embedded() - before).toBe(0);
    // billing.ts is not in C: its chunks left the shared index.
    expect(summary.filesDeleted).toBe(1);
  });

  it("lets clone B, after C's commit, read only the files whose content differs from what B last saw", async () => {
    // The manifest now holds C's mtimes; B translates them back through its own record, so
    // only deploy.md (C has another version) and billing.ts (not in C) are read.
    const engineB = await open(b);
    const summary = await engineB.index();
    expect(summary.rebuildReason).toBeNull();
    expect(summary.filesIndexed).toBe(2);
    expect(summary.filesUnchanged).toBe(Object.keys(files()).length - 1);
    expect(summary.bytesRead).toBe(statSync(join(b, "docs/deploy.md")).size + statSync(join(b, "src/billing.ts")).size);
    // Their vectors come from the shared cache: B embedded them before.
    expect(summary.chunksEmbedded).toBe(0);
  });

  it("lets only one of two concurrent writers commit, and leaves the index whole for both", async () => {
    const d = cloneOf(a);
    const e = cloneOf(a);
    writeFileSync(join(d, "src/shipping.ts"), tsFunction("estimateShippingCost", "weighs the parcel and picks a carrier"));
    writeFileSync(join(e, "src/refunds.ts"), tsFunction("issuePartialRefund", "returns part of a payment to the card"));
    const engineD = await open(d);
    const engineE = await open(e);
    const collisionsBefore = s3.preconditionFailures;
    const results = await Promise.allSettled([engineD.index(), engineE.index()]);
    // Both started together: the lock object's If-None-Match let exactly one in.
    const failed = results.flatMap((r, i) => (r.status === "rejected" ? [{ i, reason: r.reason as Error }] : []));
    expect(failed).toHaveLength(1);
    expect(failed[0].reason).toBeInstanceOf(IndexBusyError);
    expect(failed[0].reason.message).toMatch(/^another index pass is running: the index pass of \S+ pid \d+ \(since [\d:]+\); wait for it to finish, or delete s3:\/\/team-index\/projects\/demo\/rag-state\/index\.lock/);
    expect(s3.preconditionFailures).toBeGreaterThan(collisionsBefore);
    const [loser, loserFile, winnerFile] = failed[0].i === 0 ? [engineD, "src/shipping.ts", "src/refunds.ts"] : [engineE, "src/refunds.ts", "src/shipping.ts"];

    // A fresh reader sees the winner's commit whole: manifest and table agree.
    const reader = await open(cloneOf(a));
    expect((await reader.status({ countPending: false })).chunks).toBe(await tableRows());
    expect((await pathsOf(reader, winnerFile))[0]).toBe(winnerFile);

    // The loser runs again (as the watcher and `opencode-rag index` do): incremental on top of
    // the winner's commit, no rebuild. Its tree is now the index (the winner's file is not in it).
    const again = await loser.index();
    expect(again.rebuildReason).toBeNull();
    expect(again.filesDeleted).toBe(1);
    await new Promise((r) => setTimeout(r, 1100)); // the reader's next look at the bucket
    expect((await reader.status({ countPending: false })).chunks).toBe(await tableRows());
    expect((await pathsOf(reader, loserFile))[0]).toBe(loserFile);
    expect(await pathsOf(reader, winnerFile)).not.toContain(winnerFile);
  });

  it("clears the shared index for everyone: table rows and the files beside it", async () => {
    const reader = await open(cloneOf(a));
    expect((await reader.search("verifySessionToken", { topK: 1 })).length).toBe(1);
    const clearer = await open(cloneOf(a));
    await clearer.clear();
    expect((await bucketKeys()).filter((k) => k.startsWith("rag-state/"))).toEqual([]);
    expect(await tableRows()).toBe(0);
    await new Promise((r) => setTimeout(r, 1100)); // the reader's next look at the bucket
    expect(await reader.search("verifySessionToken", { topK: 1 })).toEqual([]);
    expect((await reader.status({ countPending: false })).manifestStatus).toBe("missing");
  });

  it("takes the endpoint and keys from the AWS_* variables when the config names none", async () => {
    const vars = { AWS_ENDPOINT_URL: s3.endpoint, AWS_ACCESS_KEY_ID: s3.storageOptions.aws_access_key_id, AWS_SECRET_ACCESS_KEY: s3.storageOptions.aws_secret_access_key, AWS_REGION: "us-east-1" };
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    try {
      const root = cloneOf(a);
      const engine = await openEngine({
        root,
        overrides: { embedding: { provider: "none" }, vectorStore: { path: URI }, autoIndex: { enabled: false }, logging: { level: "error", logFilePath: "" } },
      });
      engines.push(engine);
      await engine.index({ force: true });
      expect((await engine.search("verifySessionToken", { topK: 1 }))[0]?.chunk.filePath).toBe("src/tokens.ts");
      expect(await tableRows()).toBe((await engine.status({ countPending: false })).chunks);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it("does not call a bucket that stopped answering mid-session a damaged index", async () => {
    const other = await startS3Server("short-lived");
    let closed = false;
    try {
      const engine = await openEngine({
        root: cloneOf(a),
        overrides: {
          embedding: { provider: "none" },
          vectorStore: { path: "s3://short-lived/repo", storageOptions: other.storageOptions },
          autoIndex: { enabled: false },
          logging: { level: "error", logFilePath: "" },
        },
      });
      engines.push(engine);
      await engine.index();
      expect((await engine.search("verifySessionToken", { topK: 1 })).length).toBe(1);
      await other.close();
      closed = true;
      const failures: string[] = [];
      for (const query of ["record temperature", "container image registry"]) {
        failures.push(await engine.search(query, { topK: 1 }).then(() => "answered", (e: Error) => e.message));
      }
      for (const f of failures) expect(f).not.toMatch(/damaged/);
      // Once the once-a-second look at the bucket comes due, the error names the endpoint.
      await new Promise((r) => setTimeout(r, 1100));
      await expect(engine.search("verifySessionToken")).rejects.toThrow(/^the bucket s3:\/\/short-lived\/repo cannot be reached at http:\/\/127\.0\.0\.1:\d+: check the network and the endpoint/);
    } finally {
      if (!closed) await other.close();
    }
  });

  it("names the problem in one line when the credentials are wrong or the endpoint is down", async () => {
    const root = cloneOf(a);
    const wrong = await openEngine({
      root,
      overrides: {
        embedding: { provider: "none" },
        vectorStore: { path: URI, storageOptions: { ...s3.storageOptions, aws_access_key_id: "NOT-A-TEAM-KEY" } },
        autoIndex: { enabled: false },
        logging: { level: "error", logFilePath: "" },
      },
    });
    engines.push(wrong);
    const err = await wrong.search("verifySessionToken").then(() => null, (e: Error) => e);
    expect(err?.message).toMatch(/^the bucket s3:\/\/team-index\/projects\/demo refused the credentials: check the access key and secret .*, then try again; the index itself is unchanged$/);
    // The store's own words stay with it, for --debug and the log.
    expect(((err as Error).cause as Error).message).toMatch(/\(InvalidAccessKeyId\)/);
    expect(err?.message).not.toContain("\n");
    await expect(wrong.index({ force: true })).rejects.toThrow(/refused the credentials/);

    const port = await closedPort();
    const down = await openEngine({
      root,
      overrides: {
        embedding: { provider: "none" },
        vectorStore: { path: URI, storageOptions: { ...s3.storageOptions, aws_endpoint: `http://127.0.0.1:${port}` } },
        autoIndex: { enabled: false },
        logging: { level: "error", logFilePath: "" },
      },
    });
    engines.push(down);
    await expect(down.index()).rejects.toThrow(new RegExp(`^the bucket s3://team-index/projects/demo cannot be reached at http://127\\.0\\.0\\.1:${port}: check the network`));

    // A watcher reports it and waits for the next change: no forced rebuild of everyone's index.
    const errors: Error[] = [];
    const forced: boolean[] = [];
    const watched = await openEngine({
      root,
      overrides: {
        embedding: { provider: "none" },
        vectorStore: { path: URI, storageOptions: { ...s3.storageOptions, aws_endpoint: `http://127.0.0.1:${port}` } },
        autoIndex: { enabled: false },
        logging: { level: "error", logFilePath: "" },
      },
    });
    engines.push(watched);
    const index = watched.index.bind(watched);
    watched.index = (options) => {
      forced.push(!!options?.force);
      return index(options);
    };
    await watched.watch({ backend: "chokidar", debounceMs: 50, onError: (e) => errors.push(e) });
    writeFileSync(join(root, "src/edited.ts"), tsFunction("editedWhileDown", "written while the bucket is unreachable"));
    const deadline = Date.now() + 10_000;
    while (errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(errors[0]?.message).toMatch(/^the bucket s3:\/\/team-index\/projects\/demo cannot be reached/);
    expect(forced).toEqual([false]);
  });
});

/** Files of the hits for `name` whose text holds it. */
async function pathsOf(engine: Engine, file: string): Promise<string[]> {
  const name = file.includes("shipping") ? "estimateShippingCost" : "issuePartialRefund";
  return (await engine.search(name, { topK: 5 })).filter((h) => h.chunk.content.includes(name)).map((h) => h.chunk.filePath);
}
