// `opencode-rag index` while another process (e.g. the OpenCode plugin's background indexer)
// holds the store's lock: it says it is waiting, then runs its pass once the lock is free.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

let work: string;
beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-cli-wait-"));
  cpSync(join(repoRoot, "test", "fixtures", "repo"), work, { recursive: true });
  writeFileSync(join(work, "opencode-rag.json"), JSON.stringify({ embedding: { provider: "local", model: "./no-such-model" } }));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("index while another pass holds the lock", () => {
  it("waits for it instead of failing", async () => {
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    const stateDir = join(work, ".opencode", "rag_db");
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, "index.lock"), JSON.stringify({ pid: other.pid, startedAt: new Date().toISOString(), host: hostname() }));

    const cli = spawn(process.execPath, [join(repoRoot, "dist", "cli.js"), "index"], { cwd: work, env: { ...process.env, LANCEDB_LOG: "error" } });
    let stdout = "";
    let stderr = "";
    cli.stdout.on("data", (d) => (stdout += d));
    const waiting = new Promise<void>((resolve) =>
      cli.stderr.on("data", (d) => {
        stderr += d;
        if (stderr.includes("waiting for the index pass of")) resolve();
      }),
    );
    const exited = new Promise<number>((resolve) => cli.on("exit", (code) => resolve(code ?? -1)));
    await waiting;
    expect(stderr).toContain(`waiting for the index pass of ${hostname()} pid ${other.pid} (since `);
    other.kill("SIGKILL");
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^indexed \d+ files/);
  });
});
