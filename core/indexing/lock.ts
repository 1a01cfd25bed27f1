// One index pass at a time per store, across processes (`index --watch` in a terminal and the
// plugin's background indexer). The lock file holds the owner's pid and start time; a lock
// whose owner is gone (crash, kill -9) is stale and taken over.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync, mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

export const LOCK_FILE = "index.lock";

export interface LockInfo {
  pid: number;
  startedAt: string;
  host: string;
}

export class IndexBusyError extends Error {
  constructor(
    readonly lockFile: string,
    readonly owner: LockInfo,
  ) {
    super(
      `another index pass is running (pid ${owner.pid} since ${owner.startedAt}); wait for it to finish, or delete ${lockFile} if that process is gone`,
    );
    this.name = "IndexBusyError";
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readLock(stateDir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(stateDir, LOCK_FILE), "utf8")) as LockInfo;
    return typeof info.pid === "number" ? info : null;
  } catch {
    return null;
  }
}

/** The live owner of the lock, or null when nobody (alive) holds it. */
export function lockOwner(stateDir: string): LockInfo | null {
  const info = readLock(stateDir);
  if (!info) return null;
  if (info.host !== hostname()) return info; // cannot probe another machine: trust it
  if (info.pid === process.pid) return info;
  return processAlive(info.pid) ? info : null;
}

export interface IndexLock {
  release(): void;
}

function youngerThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < ms;
  } catch {
    return false;
  }
}

/** Takes the lock or throws IndexBusyError. A stale lock (dead owner, garbage file) is replaced. */
export function acquireIndexLock(stateDir: string): IndexLock {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), host: hostname() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx");
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          const now = readLock(stateDir);
          if (now && now.pid === mine.pid && now.startedAt === mine.startedAt) rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = lockOwner(stateDir);
      // A lock file with no readable owner is either being written right now (young) or was
      // left by a writer killed mid-write (old): only the old one is stale.
      if (!owner && !readLock(stateDir) && youngerThan(file, 5000)) {
        throw new IndexBusyError(file, { pid: 0, startedAt: "just now", host: hostname() });
      }
      // A file we cannot parse was left by a writer killed mid-write: it is stale too.
      if (owner) throw new IndexBusyError(file, owner);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`cannot take the index lock ${file}; delete it and retry`);
}
