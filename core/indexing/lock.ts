// One index pass at a time per store, across processes (`index --watch` in a terminal and the
// plugin's background indexer). The lock file names its owner (core/locking/holder.ts: pid,
// host, a random token and, on Linux, the boot id and start time that tell a dead owner from a
// reused pid). The owner also touches the file every few seconds: where the process cannot be
// probed (another host on a shared folder, no /proc), a lock nobody refreshed for two minutes
// is stale.
import { closeSync, openSync, readFileSync, rmSync, statSync, utimesSync, writeSync, mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { IndexBusyError, type LockInfo } from "../locking/busy.js";
import { holderRunning, markHeld, markReleased, thisHolder } from "../locking/holder.js";

export const LOCK_FILE = "index.lock";
/** How often a holder refreshes the lock file's mtime. */
export const LOCK_HEARTBEAT_MS = 5_000;
/** A lock whose mtime is older than this was left by an owner that stopped refreshing it. */
export const LOCK_STALE_MS = 120_000;

export function readLock(stateDir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(stateDir, LOCK_FILE), "utf8")) as LockInfo;
    return typeof info.pid === "number" ? info : null;
  } catch {
    return null;
  }
}

function ageMs(file: string): number | null {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/** The live owner of the lock, or null when nobody (alive) holds it. */
export function lockOwner(stateDir: string): LockInfo | null {
  const info = readLock(stateDir);
  if (!info) return null;
  const running = holderRunning(info);
  if (running !== null) return running ? info : null;
  // Cannot probe the owner: it is alive as long as it keeps refreshing the file.
  const age = ageMs(join(stateDir, LOCK_FILE));
  if (age !== null && age > LOCK_STALE_MS) return null;
  return { ...info, expiresAt: new Date(Date.now() - (age ?? 0) + LOCK_STALE_MS).toISOString() };
}

export interface IndexLock {
  release(): void;
}

function youngerThan(file: string, ms: number): boolean {
  const age = ageMs(file);
  return age !== null && age < ms;
}

/** Takes the lock or throws IndexBusyError. A stale lock (dead owner, garbage file) is replaced. */
export function acquireIndexLock(stateDir: string): IndexLock {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, LOCK_FILE);
  const mine = thisHolder();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx");
      try {
        writeSync(fd, JSON.stringify(mine));
      } catch (writeErr) {
        // A full disk creates the file but not its content: an empty lock would hold off
        // every pass for seconds, so it goes, and the pass fails with the write's error.
        closeSync(fd);
        rmSync(file, { force: true });
        throw writeErr;
      }
      closeSync(fd);
      markHeld(mine.token);
      const isMine = () => readLock(stateDir)?.token === mine.token;
      // The heartbeat: touching the file tells other processes this holder is still working.
      const beat = setInterval(() => {
        try {
          if (isMine()) utimesSync(file, new Date(), new Date());
        } catch {
          // the state folder was removed under us; the pass notices on its own
        }
      }, LOCK_HEARTBEAT_MS);
      beat.unref();
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          clearInterval(beat);
          markReleased(mine.token);
          if (isMine()) rmSync(file, { force: true });
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
      if (owner) throw new IndexBusyError(file, owner);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`cannot take the index lock ${file}; delete it and retry`);
}
