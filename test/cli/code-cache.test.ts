// On Node 20 the CLI compiles LanceDB's bundled JavaScript with a V8 code cache kept in the
// user's private temporary folder (core/files/code-cache.ts): written by the first search,
// taken as it is by the next, and never the reason a search fails, whatever the file holds.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
const work = mkdtempSync(join(tmpdir(), "rag-code-cache-"));
const temp = join(work, "tmp");
const workspace = join(work, "repo");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Node 22.1+ keeps compiled code itself (the CLI turns that on): there is no file of ours. */
const nodeCachesItself = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";

function run(...args: string[]): string {
  return execFileSync(process.execPath, [cli, ...args], { cwd: workspace, encoding: "utf8", env: { ...process.env, TMPDIR: temp, LANCEDB_LOG: "error" } });
}

function cacheFiles(): string[] {
  const uid = process.getuid?.() ?? 0;
  const dir = join(temp, `opencode-rag-${uid}`);
  try {
    return readdirSync(dir)
      .filter((n) => n.startsWith("lancedb-js.cjs-") && n.endsWith(".v8-cache"))
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

describe.skipIf(nodeCachesItself || process.platform === "win32")("LanceDB's JavaScript compiled with a code cache", () => {
  beforeAll(() => {
    ensureBuilt();
    mkdirSync(temp);
    mkdirSync(workspace);
    writeFileSync(join(workspace, "opencode-rag.json"), JSON.stringify({ embedding: { provider: "none" }, autoIndex: { enabled: false }, logging: { logFilePath: "" } }));
    writeFileSync(join(workspace, "retry.ts"), "/** Retries a request with exponential backoff. */\nexport function retryWithBackoff(attempts: number): number {\n  return 2 ** attempts;\n}\n");
    run("index");
  }, 60_000);

  it("is written by the first search, taken as it is by the next, and rewritten when damaged", () => {
    for (const f of cacheFiles()) rmSync(f); // the index pass above may have written it
    const first = run("query", "retry with backoff");
    expect(first).toContain("retryWithBackoff");
    const [cache] = cacheFiles();
    expect(cache).toBeDefined();
    const written = readFileSync(cache);
    expect(written.length).toBeGreaterThan(100_000);
    const writtenAt = statSync(cache).mtimeMs;

    // V8 accepts it: nothing is written again
    expect(run("query", "retry with backoff")).toBe(first);
    expect(statSync(cache).mtimeMs).toBe(writtenAt);
    expect(readFileSync(cache).equals(written)).toBe(true);

    // a damaged cache is refused by V8, the search answers the same, and the cache is written anew
    writeFileSync(cache, Buffer.alloc(written.length, 7));
    expect(run("query", "retry with backoff")).toBe(first);
    expect(readFileSync(cache).equals(Buffer.alloc(written.length, 7))).toBe(false);
    expect(cacheFiles()).toEqual([cache]);
  }, 60_000);

  it("removes another version's cache that has not been written for a week", () => {
    const [cache] = cacheFiles();
    const old = cache.replace(/-[0-9a-f]+\.v8-cache$/, "-0123456789abcdef.v8-cache");
    const recent = cache.replace(/-[0-9a-f]+\.v8-cache$/, "-fedcba9876543210.v8-cache");
    writeFileSync(old, "old");
    writeFileSync(recent, "recent");
    const weeksAgo = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    utimesSync(old, weeksAgo, weeksAgo);
    rmSync(cache); // the next search writes it, and looks around
    run("query", "retry with backoff");
    expect(cacheFiles().sort()).toEqual([cache, recent].sort());
  }, 60_000);
});
