// Who holds an index lock and whether that process still runs: the one identity record and
// liveness test behind both the state folder's `index.lock` and the bucket's lock object. A pid
// alone is not enough: after a reboot or in a container pid 1 (or any pid) is reused by a live
// process that holds nothing, so the record also carries the boot id and the process's start
// time (Linux). A holder on another host cannot be probed at all: its lock's expiry decides.
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

export interface LockHolder {
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

/** This process as a lock holder, with a fresh token. */
export function thisHolder(): LockHolder & { token: string } {
  const ticks = processStartTicks(process.pid);
  return {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    host: hostname(),
    token: randomBytes(8).toString("hex"),
    ...(bootId() ? { bootId: bootId()! } : {}),
    ...(ticks ? { procStart: ticks } : {}),
  };
}

/** Tokens of the locks (local and in a bucket) this process holds right now. */
const heldTokens = new Set<string>();

export function markHeld(token: string): void {
  heldTokens.add(token);
}

export function markReleased(token: string): void {
  heldTokens.delete(token);
}

/**
 * Whether the process named in `info` is the one that took the lock and still runs: true,
 * false, or null when this machine cannot tell (another host, no /proc), where the lock's
 * heartbeat or expiry decides instead.
 */
export function holderRunning(info: LockHolder): boolean | null {
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

/** 12:03:11 in this machine's time zone, or the text itself when it is not a date. */
function clock(iso: string): string {
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return iso;
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

/**
 * Who holds a lock, for a person waiting on it: `the index pass of build-7 pid 4242 (since
 * 12:03:11; its lock expires at 12:05:26 if it stopped)`. The host is always named: a bare pid
 * of another machine means nothing here. `expiresAt` only where this machine cannot tell
 * whether the holder still runs.
 */
export function describeHolder(holder: LockHolder & { expiresAt?: string }): string {
  if (!holder.pid) return `an index pass that is starting on ${holder.host}`;
  const expiry = holder.expiresAt ? `; its lock expires at ${clock(holder.expiresAt)} if it stopped` : "";
  return `the index pass of ${holder.host} pid ${holder.pid} (since ${clock(holder.startedAt)}${expiry})`;
}
