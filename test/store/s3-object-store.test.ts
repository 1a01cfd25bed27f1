// The object-store layer of a shared index against a real S3-compatible server (s3rver on
// 127.0.0.1, test/fakes/s3.ts): conditional writes, the writers' lock (one winner among racing
// writers, takeover of an expired lock only), a commit refused after its lock was taken over,
// and one-line errors for a missing bucket.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IndexBusyError } from "../../core/locking/busy.js";
import { SharedIndex, SHARED_LOCK } from "../../core/indexing/shared-index.js";
import { acquireRemoteLock } from "../../core/objectstore/lock.js";
import { PreconditionFailedError } from "../../core/objectstore/object-store.js";
import { S3ObjectStore } from "../../core/objectstore/s3.js";
import { startS3Server, type TestS3Server } from "../fakes/s3.js";

let s3: TestS3Server;
const stores: S3ObjectStore[] = [];
const dirs: string[] = [];

function store(prefix: string): S3ObjectStore {
  const s = new S3ObjectStore(`s3://unit-bucket/${prefix}`, s3.storageOptions);
  stores.push(s);
  return s;
}

const silent = { debug() {}, info() {}, error() {} };

beforeAll(async () => {
  s3 = await startS3Server("unit-bucket");
});

afterAll(async () => {
  for (const s of stores) s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await s3?.close();
});

describe("S3ObjectStore", () => {
  it("creates only when absent and replaces only the version read", async () => {
    const s = store("cond");
    const first = await s.put("manifest.json", "one", { ifNoneMatch: "*" });
    await expect(s.put("manifest.json", "two", { ifNoneMatch: "*" })).rejects.toBeInstanceOf(PreconditionFailedError);
    const second = await s.put("manifest.json", "two", { ifMatch: first });
    await expect(s.put("manifest.json", "three", { ifMatch: first })).rejects.toBeInstanceOf(PreconditionFailedError);
    const got = await s.get("manifest.json");
    expect(got !== null && got !== "unchanged" && Buffer.from(got.body).toString()).toBe("two");
    expect(await s.get("manifest.json", { ifNoneMatch: second })).toBe("unchanged");
    expect(await s.get("missing.json")).toBeNull();
    expect((await s.list("")).map((o) => o.key)).toEqual(["manifest.json"]);
    await s.delete("manifest.json");
    expect(await s.get("manifest.json")).toBeNull();
  });

  it("names a missing bucket in one line", async () => {
    const s = new S3ObjectStore("s3://no-such-bucket/x", s3.storageOptions);
    stores.push(s);
    await expect(s.get("manifest.json")).rejects.toThrow(/^the bucket "no-such-bucket" does not exist at the object store at http:\/\/127\.0\.0\.1:\d+: create it, or fix vectorStore\.path$/);
  });
});

describe("the writers' lock", () => {
  it("lets exactly one of several racing writers in", async () => {
    const s = store("race");
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => acquireRemoteLock(s, SHARED_LOCK)));
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(IndexBusyError);
    const lock = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireRemoteLock>>>).value;
    await lock.release();
    // Released: the next writer gets it at once.
    await (await acquireRemoteLock(s, SHARED_LOCK)).release();
  });

  it("is taken over only once expired, and the old holder learns it lost it", async () => {
    const s = store("expiry");
    const old = await acquireRemoteLock(s, SHARED_LOCK, { ttlMs: 400, refreshMs: 60_000 });
    await expect(acquireRemoteLock(s, SHARED_LOCK)).rejects.toBeInstanceOf(IndexBusyError);
    await new Promise((r) => setTimeout(r, 500));
    const next = await acquireRemoteLock(s, SHARED_LOCK, { ttlMs: 60_000, refreshMs: 100 });
    // A holder that keeps refreshing keeps it.
    await new Promise((r) => setTimeout(r, 300));
    expect(next.held).toBe(true);
    await expect(acquireRemoteLock(s, SHARED_LOCK)).rejects.toBeInstanceOf(IndexBusyError);
    expect(await old.confirm()).toBe(false);
    expect(old.held).toBe(false);
    // The old holder's release must not delete the new holder's lock.
    await old.release();
    await expect(acquireRemoteLock(s, SHARED_LOCK)).rejects.toBeInstanceOf(IndexBusyError);
    await next.release();
  });
});

describe("a shared index's commit", () => {
  function mirror(): string {
    const d = mkdtempSync(join(tmpdir(), "rag-s3-mirror-"));
    dirs.push(d);
    return d;
  }

  function manifest(generation: number): string {
    return JSON.stringify({ version: 1, generation, keywordFile: `keyword-${generation}.bin`, keywordDeltas: [], files: {} });
  }

  it("is refused once another writer took over its expired lock, and the bucket keeps the other's manifest", async () => {
    const s = store("lost");
    const dirA = mirror();
    const dirB = mirror();
    const a = new SharedIndex({ store: s, stateDir: dirA, logger: silent, lock: { ttlMs: 300, refreshMs: 60_000 } });
    const b = new SharedIndex({ store: s, stateDir: dirB, logger: silent });

    const passA = await a.beginPass();
    await new Promise((r) => setTimeout(r, 400)); // A stalls past its lock's expiry
    const passB = await b.beginPass();
    writeFileSync(join(dirB, "keyword-1.bin"), "kw-b");
    writeFileSync(join(dirB, "manifest.json"), manifest(1));
    await passB.commit();
    await passB.release();

    mkdirSync(dirA, { recursive: true });
    writeFileSync(join(dirA, "keyword-1.bin"), "kw-a");
    writeFileSync(join(dirA, "manifest.json"), manifest(1));
    await expect(passA.commit()).rejects.toThrow(/^another writer committed to the shared index s3:\/\/unit-bucket\/lost while this pass ran \(its lock expired\); run the pass again$/);
    await passA.release();

    // The bucket holds B's commit, and A's mirror takes it at its next look.
    await a.refresh();
    const committed = JSON.parse(readFileSync(join(dirA, "manifest.json"), "utf8")) as { keywordFile: string };
    expect(committed).toEqual(JSON.parse(readFileSync(join(dirB, "manifest.json"), "utf8")));
    expect(committed.keywordFile).toMatch(/^keyword-1-[0-9a-f]{12}\.bin$/);
    expect(readFileSync(join(dirA, committed.keywordFile), "utf8")).toBe("kw-b");
    const inBucket = await s.get(`rag-state/${committed.keywordFile}`);
    expect(inBucket !== null && inBucket !== "unchanged" && Buffer.from(inBucket.body).toString()).toBe("kw-b");
  });
});
