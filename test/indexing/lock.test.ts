// One index pass per store at a time, across processes; a lock left by a dead process is
// taken over instead of blocking indexing forever.
import { spawn } from "node:child_process";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LOCK_STALE_MS, acquireIndexLock, lockOwner } from "../../core/indexing/lock.js";
import { IndexBusyError } from "../../core/locking/busy.js";
import { processStartTicks } from "../../core/locking/holder.js";
import { engineFor, KEYWORD_ONLY, makeWorkspace, removeWorkspace } from "./helpers.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) removeWorkspace(r);
});

const keywordOnly = KEYWORD_ONLY;

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

describe("index lock owned by a reused pid", () => {
  function writeLock(stateDir: string, info: Record<string, unknown>): void {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, "index.lock"), JSON.stringify({ host: hostname(), startedAt: new Date().toISOString(), ...info }));
  }

  it("takes over a lock whose pid now belongs to another process (pid 1 after a reboot or in a container)", async () => {
    const root = makeWorkspace({ "a.ts": "export const alphaValue = 1;\n" });
    roots.push(root);
    const engine = await engineFor(root, keywordOnly);
    // Taken before a reboot: another boot id.
    writeLock(engine.stateDir, { pid: 1, bootId: "00000000-0000-0000-0000-000000000000", procStart: "1", token: "aa" });
    expect(lockOwner(engine.stateDir)).toBeNull();
    // Same boot, but pid 1 is not the process that took it (another start time).
    const own = processStartTicks(1);
    writeLock(engine.stateDir, { pid: 1, procStart: own === null ? "1" : String(Number(own) + 1), token: "bb" });
    if (own !== null) expect(lockOwner(engine.stateDir)).toBeNull();
    // A lock that names this very process but a token it does not hold (an earlier life of the pid).
    writeLock(engine.stateDir, { pid: process.pid, procStart: processStartTicks(process.pid) ?? undefined, token: "cc" });
    expect(lockOwner(engine.stateDir)).toBeNull();
    const s = await engine.index();
    expect(s.filesIndexed).toBe(1);
    await engine.close();
  });

  it("treats an old-format lock as stale when its pid started after the lock was taken", async () => {
    const root = makeWorkspace({});
    roots.push(root);
    const dir = join(root, "state");
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 50));
      writeLock(dir, { pid: other.pid, startedAt: new Date(Date.now() - 3_600_000).toISOString() });
      if (processStartTicks(other.pid!) !== null) expect(lockOwner(dir)).toBeNull();
      // Taken after it started: its owner, alive.
      writeLock(dir, { pid: other.pid });
      expect(lockOwner(dir)?.pid).toBe(other.pid);
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("trusts a lock from another host while its owner refreshes it, and not after", () => {
    const root = makeWorkspace({});
    roots.push(root);
    const dir = join(root, "state");
    writeLock(dir, { pid: 4242, host: "some-other-host", token: "ee" });
    expect(lockOwner(dir)?.host).toBe("some-other-host");
    expect(() => acquireIndexLock(dir)).toThrow(IndexBusyError);
    const old = new Date(Date.now() - LOCK_STALE_MS - 60_000);
    utimesSync(join(dir, "index.lock"), old, old);
    expect(lockOwner(dir)).toBeNull();
    acquireIndexLock(dir).release();
  });

  it("sees a live holder by its recorded start time, and its lock as stale once it dies", async () => {
    const root = makeWorkspace({});
    roots.push(root);
    const dir = join(root, "state");
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 50));
      writeLock(dir, { pid: other.pid, procStart: processStartTicks(other.pid!) ?? undefined, token: "dd" });
      expect(lockOwner(dir)?.pid).toBe(other.pid);
      expect(() => acquireIndexLock(dir)).toThrow(IndexBusyError);
    } finally {
      other.kill("SIGKILL");
      await new Promise((r) => other.once("exit", r));
    }
    const lock = acquireIndexLock(dir);
    expect(lockOwner(dir)?.token).toMatch(/^[0-9a-f]{16}$/);
    lock.release();
    expect(lockOwner(dir)).toBeNull();
  });
});
