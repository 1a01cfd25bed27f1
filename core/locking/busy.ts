// What a writer that finds the index locked is told: the same error and waiting line whether
// the lock is the state folder's `index.lock` or a shared index's lock object in a bucket.
import { describeHolder, type LockHolder } from "./holder.js";

export interface LockInfo extends LockHolder {
  /** Where this machine cannot tell whether the holder runs: when its lock goes stale. */
  expiresAt?: string;
}

export class IndexBusyError extends Error {
  constructor(
    readonly lockFile: string,
    readonly owner: LockInfo,
  ) {
    super(`another index pass is running: ${describeHolder(owner)}; wait for it to finish, or delete ${lockFile} if that process is gone`);
    this.name = "IndexBusyError";
  }
}

/** What a host prints while it waits for another pass: who holds the lock, since and until when. */
export function waitingLine(err: IndexBusyError): string {
  return `waiting for ${describeHolder(err.owner)}…`;
}
