// A shared index on S3 (s3rver on 127.0.0.1) after a pass was killed with `kill -9` mid-way:
// the next pass on the same machine sees from the bucket's lock that its holder is gone and
// starts at once instead of waiting for the lock to expire, and it commits; the committed
// index answers throughout. A lock held by another host still waits for its expiry, and the
// waiting line names that host and the expiry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { IndexBusyError, waitingLine } from "../../core/locking/busy.js";
import { SHARED_LOCK } from "../../core/indexing/shared-index.js";
import { S3ObjectStore } from "../../core/objectstore/s3.js";
import { startFakeOllama } from "../fakes/ollama.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";
import { startS3Server, type TestS3Server } from "../fakes/s3.js";
import { ensureBuilt, repoRoot } from "./dist-build.js";
import { makeWorkspace, removeWorkspace, tsFunction } from "./helpers.js";

let s3: TestS3Server;
let ollama: FakeHttpServer;
const roots: string[] = [];
const engines: Engine[] = [];

function overrides(uri: string) {
  return {
    embedding: { provider: "ollama", model: "nomic-embed-text", baseUrl: ollama.url, batchSize: 4, maxRetries: 0 },
    vectorStore: { path: uri, storageOptions: s3.storageOptions },
    autoIndex: { enabled: false },
    logging: { level: "error", logFilePath: "" },
  };
}

async function open(root: string, uri: string): Promise<Engine> {
  const engine = await openEngine({ root, overrides: overrides(uri) });
  engines.push(engine);
  return engine;
}

function workspace(): string {
  const files: Record<string, string> = { "src/tokens.ts": tsFunction("verifySessionToken", "checks a session token's signature") };
  for (let i = 0; i < 8; i++) files[`src/util/helper${i}.ts`] = tsFunction(`helperNumber${i}`, `doubles the value for caller ${i}`);
  const root = makeWorkspace(files);
  roots.push(root);
  return root;
}

/** A pass of the built library in a process of its own, as the CLI or the plugin would run it. */
function passInChild(root: string, uri: string) {
  const script = `const lib = await import(${JSON.stringify(join(repoRoot, "dist", "library.js"))});
const engine = await lib.openEngine({ root: ${JSON.stringify(root)}, overrides: ${JSON.stringify(overrides(uri))} });
await engine.index();
process.exit(0);`;
  return spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore", env: { ...process.env, LANCEDB_LOG: "error" } });
}

async function lockBody(uri: string): Promise<Record<string, unknown> | null> {
  const store = new S3ObjectStore(uri, s3.storageOptions);
  try {
    const got = await store.get(SHARED_LOCK);
    return got && got !== "unchanged" ? (JSON.parse(Buffer.from(got.body).toString("utf8")) as Record<string, unknown>) : null;
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  ensureBuilt();
  s3 = await startS3Server("crash-index");
  ollama = await startFakeOllama();
});

afterAll(async () => {
  for (const e of engines) await e.close().catch(() => undefined);
  for (const r of roots) removeWorkspace(r);
  await ollama?.close();
  await s3?.close();
});

describe("a shared index after a pass was killed", () => {
  it("starts the next pass on the same machine at once, commits it, and answers from the committed index throughout", async () => {
    const uri = "s3://crash-index/killed";
    const root = workspace();
    const engine = await open(root, uri);
    await engine.index();
    expect((await engine.search("verify session token signature")).map((r) => r.chunk.filePath)).toContain("src/tokens.ts");

    // Another process starts a pass over new files and is killed while it embeds them.
    for (let i = 0; i < 6; i++) writeFileSync(join(root, `src/added${i}.ts`), tsFunction(`addedFunction${i}`, `parses the added record ${i}`));
    ollama.latencyMs = 3_000;
    const child = passInChild(root, uri);
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    const deadline = Date.now() + 30_000;
    let holder: Record<string, unknown> | null = null;
    while (Date.now() < deadline && (holder = await lockBody(uri))?.pid !== child.pid) await new Promise((r) => setTimeout(r, 100));
    expect(holder).toMatchObject({ pid: child.pid, host: hostname() });
    // The lock records what tells a dead holder on this machine from a live one.
    if (process.platform === "linux") expect(holder).toHaveProperty("bootId");
    await new Promise((r) => setTimeout(r, 500));
    child.kill("SIGKILL");
    await exited;
    ollama.latencyMs = 0;

    // The bucket's lock is still there, valid for two more minutes: nobody released it.
    expect((await lockBody(uri))?.pid).toBe(child.pid);
    expect((await engine.search("verify session token signature")).map((r) => r.chunk.filePath)).toContain("src/tokens.ts");

    const started = Date.now();
    let firstProgressMs: number | null = null;
    const summary = await engine.index({ onProgress: () => (firstProgressMs ??= Date.now() - started) });
    expect(firstProgressMs).not.toBeNull();
    expect(firstProgressMs!).toBeLessThan(2_000);
    expect(summary.filesIndexed).toBe(6);
    expect((await engine.search("parses the added record")).map((r) => r.chunk.filePath)).toEqual(expect.arrayContaining(["src/added0.ts"]));
    expect(await lockBody(uri)).toBeNull();
  }, 90_000);

  it("waits for a lock held on another host until it expires, naming the host and the expiry", async () => {
    const uri = "s3://crash-index/other-host";
    const root = workspace();
    const engine = await open(root, uri);
    await engine.index();
    const store = new S3ObjectStore(uri, s3.storageOptions);
    const startedAt = new Date(Date.now() - 30_000).toISOString();
    const expiresAt = new Date(Date.now() + 90_000).toISOString();
    // pid 1 runs here, but on this machine it is not that host's pass: only the expiry counts.
    await store.put(SHARED_LOCK, JSON.stringify({ token: "t0", host: "build-7.example", pid: 1, startedAt, expiresAt, bootId: "another-boot" }));
    store.close();

    const err = await engine.index().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(IndexBusyError);
    const clock = (iso: string) => new Date(iso).toTimeString().slice(0, 8);
    expect(waitingLine(err as IndexBusyError)).toBe(
      `waiting for the index pass of build-7.example pid 1 (since ${clock(startedAt)}; its lock expires at ${clock(expiresAt)} if it stopped)…`,
    );
    // The committed index still answers.
    expect((await engine.search("verify session token signature")).map((r) => r.chunk.filePath)).toContain("src/tokens.ts");
  }, 60_000);

  it("takes over at once a lock this machine's dead process left, even one never refreshed", async () => {
    const uri = "s3://crash-index/dead-pid";
    const root = workspace();
    const engine = await open(root, uri);
    const gone = spawn("true");
    await new Promise((r) => gone.on("exit", r));
    const store = new S3ObjectStore(uri, s3.storageOptions);
    const now = Date.now();
    await store.put(SHARED_LOCK, JSON.stringify({ token: "t1", host: hostname(), pid: gone.pid, startedAt: new Date(now).toISOString(), expiresAt: new Date(now + 120_000).toISOString() }));
    store.close();
    const summary = await engine.index();
    expect(summary.filesIndexed).toBe(9);
    expect(await lockBody(uri)).toBeNull();
  }, 60_000);
});
