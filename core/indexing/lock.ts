// One index pass at a time per store, across processes (`index --watch` in a terminal and the
// plugin's background indexer). The lock file names its owner: pid, host, a random token and,
// on Linux, the boot id and the process's start time. A pid alone is not enough: after a reboot
// or in a container pid 1 (or any pid) is reused by a live process that holds nothing. The
// owner also touches the file every few seconds: where the process cannot be probed (another
// host on a shared folder, no /proc), a lock nobody refreshed for two minutes is stale.
import { closeSync, openSync, readFileSync, rmSync, statSync, utimesSync, writeSync, mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";

export const LOCK_FILE = "index.lock";
/** How often a holder refreshes the lock file's mtime. */
export const LOCK_HEARTBEAT_MS = 5_000;
/** A lock whose mtime is older than this was left by an owner that stopped refreshing it. */
export const LOCK_STALE_MS = 120_000;

export interface LockInfo {
  pid: number;
  startedAt: string;
  host: string;
  /** Random per lock: tells this holder's lock from a later one by the same pid. */
  token?: string;
  /** Linux: /proc/sys/kernel/random/boot_id when the lock was taken. */
  bootId?: string;
  /** Linux: the owner's start time in clock ticks since boot (/proc/<pid>/stat, field 22). */
  procStart?: string;
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

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat (start time in ticks since boot); null without /proc. */
export function processStartTicks(pid: number): string | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // The command name (field 2) may hold spaces and parentheses: count from the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? null;
}

let bootIdCache: string | null | undefined;
function bootId(): string | null {
  if (bootIdCache === undefined) bootIdCache = readText("/proc/sys/kernel/random/boot_id")?.trim() || null;
  return bootIdCache;
}

/** When `pid` started (ms since the epoch), from /proc; null where that cannot be read. */
function processStartMs(pid: number): number | null {
  const ticks = processStartTicks(pid);
  const btime = /^btime (\d+)$/m.exec(readText("/proc/stat") ?? "")?.[1];
  if (ticks === null || !btime) return null;
  // USER_HZ is 100 on every Linux build that matters; the comparison below allows seconds of slack.
  return Number(btime) * 1000 + (Number(ticks) / 100) * 1000;
}

export function readLock(stateDir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(stateDir, LOCK_FILE), "utf8")) as LockInfo;
    return typeof info.pid === "number" ? info : null;
  } catch {
    return null;
  }
}

/** Tokens of the locks this process holds right now. */
const heldTokens = new Set<string>();

/**
 * Whether the process named in `info` is the one that took the lock and still runs: true,
 * false, or null when this machine cannot tell (another host, no /proc), where the
 * heartbeat decides instead.
 */
function ownerRunning(info: LockInfo): boolean | null {
  if (info.token && heldTokens.has(info.token)) return true;
  if (info.host !== hostname()) return null;
  if (info.bootId && bootId() && info.bootId !== bootId()) return false; // taken before a reboot
  if (!processAlive(info.pid)) return false;
  // Our own pid with a token we do not hold: released, or a previous life of this pid.
  if (info.pid === process.pid && info.token) return false;
  if (info.procStart) {
    const now = processStartTicks(info.pid);
    if (now !== null) return now === info.procStart;
  }
  // A lock without a start time (older versions): a process that started after the lock was
  // taken cannot be its owner.
  const started = processStartMs(info.pid);
  const taken = Date.parse(info.startedAt);
  if (started === null || !Number.isFinite(taken)) return null;
  return started <= taken + 2_000;
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
  const running = ownerRunning(info);
  if (running !== null) return running ? info : null;
  // Cannot probe the owner: it is alive as long as it keeps refreshing the file.
  const age = ageMs(join(stateDir, LOCK_FILE));
  return age !== null && age > LOCK_STALE_MS ? null : info;
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
  const mine: LockInfo = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    host: hostname(),
    token: randomBytes(8).toString("hex"),
    ...(bootId() ? { bootId: bootId()! } : {}),
    ...(processStartTicks(process.pid) ? { procStart: processStartTicks(process.pid)! } : {}),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx");
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      heldTokens.add(mine.token!);
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
          heldTokens.delete(mine.token!);
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
