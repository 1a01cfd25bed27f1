// One writer at a time on a shared index, across machines: a lock object created with
// If-None-Match: * (only one create can succeed) and kept alive by rewriting it with If-Match
// (only the holder's version can be replaced). A holder that stops refreshing it (killed,
// disconnected) loses it once `expiresAt` passes: the next writer replaces exactly that
// version, so two machines can never both take over the same stale lock. The lock names its
// holder as the local lock does (core/locking/holder.ts): a writer on the holder's own host that can
// prove it gone (same boot, pid absent or started at another time) takes over at once, with
// the same conditional write, instead of waiting for the expiry.
import { IndexBusyError } from "../locking/busy.js";
import { holderRunning, markHeld, markReleased, thisHolder, type LockHolder } from "../locking/holder.js";
import { PreconditionFailedError, type ObjectStore } from "./object-store.js";

/** How long a lock stays valid without a refresh. Generous: machines' clocks differ. */
export const REMOTE_LOCK_TTL_MS = 120_000;
/** How often the holder refreshes it. */
export const REMOTE_LOCK_REFRESH_MS = 15_000;

interface LockBody extends LockHolder {
  token: string;
  expiresAt: string;
}

export interface RemoteLock {
  /** False once another writer replaced the lock (this holder stopped refreshing in time). */
  readonly held: boolean;
  /** Refreshes the lock now; false when another writer has replaced it. Call before committing. */
  confirm(): Promise<boolean>;
  release(): Promise<void>;
}

export interface RemoteLockOptions {
  ttlMs?: number;
  refreshMs?: number;
}

function parse(body: Uint8Array): LockBody | null {
  try {
    const b = JSON.parse(Buffer.from(body).toString("utf8")) as LockBody;
    return typeof b.token === "string" && typeof b.expiresAt === "string" ? b : null;
  } catch {
    return null;
  }
}

/** Takes the lock at `key`, or throws IndexBusyError naming the live holder. */
export async function acquireRemoteLock(store: ObjectStore, key: string, options: RemoteLockOptions = {}): Promise<RemoteLock> {
  const ttl = options.ttlMs ?? REMOTE_LOCK_TTL_MS;
  const holder = thisHolder();
  const token = holder.token;
  const body = (): string => JSON.stringify({ ...holder, expiresAt: new Date(Date.now() + ttl).toISOString() } satisfies LockBody);

  // Ours from the moment it may be written: another acquire in this process that reads it
  // before our put returns must see a running holder, not a dead previous life of this pid.
  markHeld(token);
  let etag: string;
  try {
    etag = await createOrTakeOver(store, key, body);
  } catch (err) {
    markReleased(token);
    throw err;
  }

  let held = true;
  let released = false;
  // Refreshes run one at a time; a refresh that finds another writer's lock gives it up.
  let refreshing: Promise<void> = Promise.resolve();
  const refresh = (strict: boolean): Promise<void> => {
    refreshing = refreshing.then(async () => {
      if (!held || released) return;
      try {
        etag = await store.put(key, body(), { ifMatch: etag });
      } catch (err) {
        if (err instanceof PreconditionFailedError) {
          held = false;
          markReleased(token);
        }
        // Other failures (a network blip) are retried at the next tick; the TTL allows several.
        else if (strict) throw err;
      }
    });
    return refreshing;
  };
  const timer = setInterval(() => void refresh(false).catch(() => undefined), options.refreshMs ?? REMOTE_LOCK_REFRESH_MS);
  timer.unref();

  return {
    get held() {
      return held;
    },
    async confirm() {
      // An expired lock nobody took over yet is still ours: the If-Match succeeds and renews it.
      await refresh(true);
      return held;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      markReleased(token);
      await refreshing.catch(() => undefined);
      if (!held) return;
      // Delete only our own lock: another writer may have taken over an expired one.
      const current = await store.get(key).catch(() => null);
      if (current && current !== "unchanged" && parse(current.body)?.token === token) await store.delete(key).catch(() => undefined);
    },
  };
}

/** Creates the lock, or replaces a stale one (expired, or its holder known gone); its ETag. */
async function createOrTakeOver(store: ObjectStore, key: string, body: () => string): Promise<string> {
  let etag: string;
  try {
    etag = await store.put(key, body(), { ifNoneMatch: "*" });
  } catch (err) {
    if (!(err instanceof PreconditionFailedError)) throw err;
    const current = await store.get(key);
    if (current === null || current === "unchanged") {
      // Released between our write and our read: one more try, like any other writer.
      etag = await createOrBusy(store, key, body());
    } else {
      const owner = parse(current.body);
      // A lock that cannot be parsed was half-written by nobody (S3 writes are atomic): treat
      // it as stale, as one whose holder this machine knows is gone. A live one names its holder.
      if (owner && Date.parse(owner.expiresAt) > Date.now() && holderRunning(owner) !== false) throw busy(store, key, owner);
      try {
        etag = await store.put(key, body(), { ifMatch: current.etag });
      } catch (takeErr) {
        if (takeErr instanceof PreconditionFailedError) throw busy(store, key, owner);
        throw takeErr;
      }
    }
  }
  return etag;
}

async function createOrBusy(store: ObjectStore, key: string, body: string): Promise<string> {
  try {
    return await store.put(key, body, { ifNoneMatch: "*" });
  } catch (err) {
    if (err instanceof PreconditionFailedError) throw busy(store, key, null);
    throw err;
  }
}

function busy(store: ObjectStore, key: string, owner: LockBody | null): IndexBusyError {
  const where = `${store.location}/${key}`;
  if (!owner) return new IndexBusyError(where, { pid: 0, host: "another machine", startedAt: new Date().toISOString() });
  const { token: _token, expiresAt, ...holder } = owner;
  // A holder this machine sees running needs no expiry: it is not stopped.
  return new IndexBusyError(where, holderRunning(owner) ? holder : { ...holder, expiresAt });
}
