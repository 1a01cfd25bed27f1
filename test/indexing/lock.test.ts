// One index pass per store at a time, across processes; a lock left by a dead process is
// taken over instead of blocking indexing forever.
import { spawn } from "node:child_process";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IndexBusyError, acquireIndexLock, lockOwner } from "../../core/indexing/lock.js";
import { engineFor, makeWorkspace, removeWorkspace } from "./helpers.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) removeWorkspace(r);
});

// A model folder that does not exist: the engine runs keyword-only, with no model to load.
const keywordOnly = { embedding: { provider: "local", model: "./no-such-model" }, logging: { logFilePath: "" } };

function lockFile(stateDir: string, pid: number): void {
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, "index.lock"), JSON.stringify({ pid, startedAt: new Date().toISOString(), host: hostname() }));
}

describe("index lock", () => {
  it("refuses a second pass while another live process holds the lock, then proceeds once it is gone", async () => {
    const root = makeWorkspace({ "a.ts": "export const alphaValue = 1;\n" });
    roots.push(root);
    const engine = await engineFor(root, keywordOnly);
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      lockFile(engine.stateDir, other.pid!);
      await expect(engine.index()).rejects.toThrow(IndexBusyError);
      await expect(engine.index()).rejects.toThrow(new RegExp(`pid ${other.pid}`));
    } finally {
      other.kill("SIGKILL");
      await new Promise((r) => other.once("exit", r));
    }
    // The owner died: its lock is stale and taken over.
    const s = await engine.index();
    expect(s.filesIndexed).toBe(1);
    expect(lockOwner(engine.stateDir)).toBeNull();
    await engine.close();
  });

  it("treats an old unreadable lock file as stale but a fresh one as busy", () => {
    const root = makeWorkspace({});
    roots.push(root);
    const dir = join(root, "state");
    mkdirSync(dir);
    writeFileSync(join(dir, "index.lock"), "");
    expect(() => acquireIndexLock(dir)).toThrow(IndexBusyError);
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, "index.lock"), old, old);
    const lock = acquireIndexLock(dir);
    expect(lockOwner(dir)?.pid).toBe(process.pid);
    lock.release();
    expect(lockOwner(dir)).toBeNull();
  });

  it("serialises passes of one engine instead of failing them", async () => {
    const root = makeWorkspace({ "a.ts": "export const alphaValue = 1;\n", "b.ts": "export const betaValue = 2;\n" });
    roots.push(root);
    const engine = await engineFor(root, keywordOnly);
    const [a, b] = await Promise.all([engine.index(), engine.index()]);
    expect(a.filesIndexed + b.filesIndexed).toBe(2);
    expect(b.filesIndexed).toBe(0);
    await engine.close();
  });
});
