// The little an index needs from object storage to keep its own files beside a LanceDB table:
// whole-object reads and writes, conditional writes (the commit point and the writers' lock),
// listing and deletion. LanceDB reaches the table itself; this only carries the index's state.

export interface StoredObject {
  body: Uint8Array;
  etag: string;
}

export interface ObjectInfo {
  /** Key relative to the store's prefix. */
  key: string;
  etag: string;
  size: number;
}

/** Create only if absent (If-None-Match: *), or replace only the version read (If-Match). */
export type PutCondition = { ifNoneMatch: "*" } | { ifMatch: string };

export interface ObjectStore {
  /** Where the objects live, for messages: `s3://bucket/prefix`. */
  readonly location: string;
  /** The object, null when absent, or "unchanged" when its ETag equals `ifNoneMatch`. */
  get(key: string, options?: { ifNoneMatch?: string }): Promise<StoredObject | null | "unchanged">;
  /** Writes the object and returns its new ETag; PreconditionFailedError when `condition` does not hold. */
  put(key: string, body: Uint8Array | string, condition?: PutCondition): Promise<string>;
  delete(key: string): Promise<void>;
  /** Every object under `prefix` (relative to the store's prefix). */
  list(prefix: string): Promise<ObjectInfo[]>;
  close(): void;
}

/** A conditional write lost: the object exists, or changed since it was read. */
export class PreconditionFailedError extends Error {
  constructor(readonly key: string) {
    super(`${key} was changed by another writer`);
    this.name = "PreconditionFailedError";
  }
}

/** What kind of trouble an object store call met: lets hosts word it without parsing messages. */
export type ObjectStoreFailure = "unreachable" | "credentials" | "no-credentials" | "no-bucket" | "other";

/** A failed object store call, in one line, with the SDK's error kept as `cause`. */
export class ObjectStoreError extends Error {
  constructor(
    message: string,
    readonly failure: ObjectStoreFailure,
    cause: unknown,
  ) {
    super(message, { cause });
    this.name = "ObjectStoreError";
  }
}

/** A pass's commit refused because another writer took over its lock (it stalled past the expiry). */
export class CommitLostError extends Error {
  constructor(readonly location: string) {
    super(`another writer committed to the shared index ${location} while this pass ran (its lock expired); run the pass again`);
    this.name = "CommitLostError";
  }
}
