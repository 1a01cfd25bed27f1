// A team-shared index on object storage: LanceDB keeps the table in the bucket, and the index's
// own files (manifest, keyword index, embedding cache) live beside it under `rag-state/`. Each
// machine works on a local mirror of those files in its state folder, so the pass and the
// search code are the same as for a local store:
// - a pass takes the bucket's lock, pulls the manifest, keyword files and embedding caches,
//   runs, then pushes what changed and writes the manifest last with If-Match on the version
//   it pulled (another writer's commit makes it fail instead of being overwritten);
// - a search pulls the manifest (a conditional GET: nothing is sent when it is unchanged) and
//   the keyword files it names, at most once per `refreshMs`.
// The bucket is the truth; the mirror is a cache and `shared-sync.json` records the ETags of
// what it holds.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../engine-types.js";
import { acquireRemoteLock, type RemoteLock, type RemoteLockOptions } from "../objectstore/lock.js";
import { CommitLostError, PreconditionFailedError, type ObjectStore } from "../objectstore/object-store.js";
import { isS3Uri, S3ObjectStore } from "../objectstore/s3.js";
import { readJsonState, removeQuietly, writeFileAtomic, writeJsonAtomic } from "./atomic-file.js";
import { EMBEDDING_CACHE_DIR } from "./embedding-cache.js";
import { hashBytes } from "./hash.js";
import { lockOwner } from "./lock.js";
import { MANIFEST_FILE, type Manifest } from "./manifest.js";

/** Folder beside the table (`s3://bucket/prefix/rag-state/`) holding the index's own files. */
export const SHARED_STATE_DIR = "rag-state";
export const SHARED_LOCK = `${SHARED_STATE_DIR}/index.lock`;
const SYNC_FILE = "shared-sync.json";
/**
 * This machine's size and mtime of each file with the content hash it had then, recorded after
 * every pass. The manifest carries the last writer's mtimes; translated back through this file,
 * a clone's pass skips the files it has already seen unchanged instead of reading them all.
 */
const LOCAL_STAT_FILE = "shared-stat.json";
const KEYWORD_PREFIX = "keyword-";

interface SyncRecord {
  location: string;
  /** State-folder-relative file -> ETag of the bucket object it was copied from or to. */
  etags: Record<string, string>;
  /** sha1 of the mirror's manifest as pulled or pushed: a local edit that never reached the bucket differs. */
  manifestHash?: string;
}

/** A pass's hold on the shared index: commit() after a successful pass, release() always. */
export interface SharedPass {
  commit(): Promise<void>;
  release(): Promise<void>;
}

export interface SharedIndexOptions {
  store: ObjectStore;
  stateDir: string;
  logger: Logger;
  lock?: RemoteLockOptions;
}

function keywordFiles(m: Manifest | null): string[] {
  if (!m) return [];
  return [...(m.keywordFile ? [m.keywordFile] : []), ...(m.keywordDeltas ?? [])];
}

function parseManifest(text: string | null): Manifest | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Manifest;
  } catch {
    return null;
  }
}

export class SharedIndex {
  readonly store: ObjectStore;
  private readonly stateDir: string;
  private readonly logger: Logger;
  private record: SyncRecord;
  /** One pull at a time (a search and a pass of the same engine may both ask). */
  private pulling: Promise<unknown> = Promise.resolve();
  /** Passes of this process holding the bucket's lock: their commit updates the mirror itself. */
  private passes = 0;

  constructor(private readonly options: SharedIndexOptions) {
    this.store = options.store;
    this.stateDir = options.stateDir;
    this.logger = options.logger;
    const saved = readJsonState<SyncRecord>(join(this.stateDir, SYNC_FILE));
    this.record = saved && saved !== "corrupt" && saved.location === this.store.location ? saved : { location: this.store.location, etags: {} };
  }

  get location(): string {
    return this.store.location;
  }

  private remote(file: string): string {
    return `${SHARED_STATE_DIR}/${file}`;
  }

  private saveRecord(): void {
    writeJsonAtomic(join(this.stateDir, SYNC_FILE), this.record);
  }

  private localText(file: string): string | null {
    try {
      return readFileSync(join(this.stateDir, file), "utf8");
    } catch {
      return null;
    }
  }

  /** Downloads `file` unless the mirror already holds the version with `etag`. */
  private async download(file: string, etag?: string): Promise<void> {
    if (etag && this.record.etags[file] === etag && existsSync(join(this.stateDir, file))) return;
    const got = await this.store.get(this.remote(file));
    if (got === null || got === "unchanged") throw new Error(`${this.location}/${this.remote(file)} is missing; the shared index is incomplete: run \`opencode-rag index\` to repair it`);
    writeFileAtomic(join(this.stateDir, file), got.body);
    this.record.etags[file] = got.etag;
  }

  /**
   * Brings the mirror's manifest and the keyword files it names up to the bucket's. Returns
   * the manifest's ETag (null when the bucket has none). With `caches`, the embedding caches too.
   */
  private async pull(caches: boolean): Promise<string | null> {
    const run = this.pulling.then(() => this.pullNow(caches));
    this.pulling = run.catch(() => undefined);
    return run;
  }

  private async pullNow(caches: boolean): Promise<string | null> {
    const known = this.record.etags[MANIFEST_FILE];
    const local = this.localText(MANIFEST_FILE);
    const mirror = local !== null && hashBytes(local) === this.record.manifestHash;
    const got = await this.store.get(this.remote(MANIFEST_FILE), known && mirror ? { ifNoneMatch: known } : {});
    if (caches) {
      for (const o of await this.store.list(`${SHARED_STATE_DIR}/${EMBEDDING_CACHE_DIR}/`)) {
        await this.download(o.key.slice(SHARED_STATE_DIR.length + 1), o.etag);
      }
    }
    if (got === "unchanged") return known!;
    if (got === null) {
      // No index in the bucket (never built, or cleared): neither is there one here.
      removeQuietly(join(this.stateDir, MANIFEST_FILE));
      delete this.record.etags[MANIFEST_FILE];
      delete this.record.manifestHash;
      this.saveRecord();
      return null;
    }
    const manifest = parseManifest(Buffer.from(got.body).toString("utf8"));
    // Keyword files never change under a name the bucket's manifest uses, but the mirror may
    // hold a file of that name from a pass whose commit lost: compare ETags, not names.
    const listed = new Map((await this.store.list(`${SHARED_STATE_DIR}/${KEYWORD_PREFIX}`)).map((o) => [o.key.slice(SHARED_STATE_DIR.length + 1), o.etag]));
    for (const f of keywordFiles(manifest)) await this.download(f, listed.get(f));
    // The manifest last: a reader that sees it finds everything it names.
    const text = this.localize(Buffer.from(got.body).toString("utf8"), manifest);
    writeFileAtomic(join(this.stateDir, MANIFEST_FILE), text);
    this.record.etags[MANIFEST_FILE] = got.etag;
    this.record.manifestHash = hashBytes(text);
    this.saveRecord();
    return got.etag;
  }

  /** The bucket's manifest with this machine's size and mtime wherever the content is one it has seen. */
  private localize(text: string, manifest: Manifest | null): string {
    const stats = readJsonState<Record<string, [number, number, string]>>(join(this.stateDir, LOCAL_STAT_FILE));
    if (!manifest?.files || !stats || stats === "corrupt") return text;
    let changed = false;
    for (const [path, entry] of Object.entries(manifest.files)) {
      const mine = stats[path];
      if (!mine || mine[2] !== entry.hash || (mine[0] === entry.size && mine[1] === entry.mtimeMs)) continue;
      entry.size = mine[0];
      entry.mtimeMs = mine[1];
      changed = true;
    }
    return changed ? JSON.stringify(manifest) : text;
  }

  /** Records the mirror's manifest entries as this machine's stats (after a pass, they are). */
  private rememberStats(): void {
    const manifest = parseManifest(this.localText(MANIFEST_FILE));
    if (!manifest?.files) return;
    const out: Record<string, [number, number, string]> = {};
    for (const [path, e] of Object.entries(manifest.files)) if (e.mtimeMs >= 0 && e.hash) out[path] = [e.size, e.mtimeMs, e.hash];
    writeJsonAtomic(join(this.stateDir, LOCAL_STAT_FILE), out);
  }

  /** For searches: the bucket's latest commit in the mirror. Fails with one line when the bucket cannot be read. */
  async refresh(): Promise<void> {
    // Mid-pass the mirror holds the pass's own manifest, which a pull would overwrite: not while
    // a pass of this process, or of another one on this machine (the CLI beside the plugin), runs.
    if (this.passes > 0 || lockOwner(this.stateDir)) return;
    await this.pull(false);
  }

  /** Takes the bucket's lock and pulls everything a pass reads. */
  async beginPass(): Promise<SharedPass> {
    const lock = await acquireRemoteLock(this.store, SHARED_LOCK, this.options.lock);
    let pulledEtag: string | null;
    let pulledText: string | null;
    this.passes++;
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      this.passes--;
      await lock.release();
    };
    try {
      pulledEtag = await this.pull(true);
      pulledText = pulledEtag ? this.localText(MANIFEST_FILE) : null;
    } catch (err) {
      await release().catch(() => undefined);
      throw err;
    }
    const cacheSizes = this.cacheSizes();
    return {
      commit: () => this.commit(lock, pulledEtag, pulledText, cacheSizes),
      release,
    };
  }

  private cacheSizes(): Map<string, number> {
    const out = new Map<string, number>();
    const dir = join(this.stateDir, EMBEDDING_CACHE_DIR);
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => !n.endsWith(".tmp"));
    } catch {
      return out;
    }
    for (const n of names) {
      try {
        out.set(`${EMBEDDING_CACHE_DIR}/${n}`, statSync(join(dir, n)).size);
      } catch {
        // removed meanwhile
      }
    }
    return out;
  }

  /** Pushes what the pass changed; the manifest last, only over the version pulled. */
  private async commit(lock: RemoteLock, pulledEtag: string | null, pulledText: string | null, cacheBefore: Map<string, number>): Promise<void> {
    const text = this.localText(MANIFEST_FILE);
    const cacheNow = this.cacheSizes();
    const grownCaches = [...cacheNow].filter(([f, size]) => cacheBefore.get(f) !== size || !this.record.etags[f]).map(([f]) => f);
    // A cache the pass removed (a model cheap to recompute keeps none) leaves the bucket too.
    const removedCaches = [...cacheBefore.keys()].filter((f) => !cacheNow.has(f));
    this.rememberStats();
    if (text === pulledText && grownCaches.length === 0 && removedCaches.length === 0) return;
    // A pass that stalled past its lock's expiry must not write anything: check just before.
    if (!(await lock.confirm())) throw this.lost();
    for (const f of grownCaches) this.record.etags[f] = await this.store.put(this.remote(f), readFileSync(join(this.stateDir, f)));
    for (const f of removedCaches) {
      await this.store.delete(this.remote(f)).catch(() => undefined);
      delete this.record.etags[f];
    }
    if (text === null || text === pulledText) {
      this.saveRecord();
      return;
    }
    const before = parseManifest(pulledText);
    const previous = new Set(keywordFiles(before));
    const after = this.uniqueKeywordNames(parseManifest(text), previous);
    const committed = JSON.stringify(after);
    for (const f of keywordFiles(after)) {
      if (previous.has(f)) continue;
      this.record.etags[f] = await this.store.put(this.remote(f), readFileSync(join(this.stateDir, f)));
    }
    try {
      this.record.etags[MANIFEST_FILE] = await this.store.put(this.remote(MANIFEST_FILE), committed, pulledEtag ? { ifMatch: pulledEtag } : { ifNoneMatch: "*" });
    } catch (err) {
      if (err instanceof PreconditionFailedError) throw this.lost();
      throw err;
    }
    this.record.manifestHash = hashBytes(committed);
    this.saveRecord();
    // Keyword files of two commits ago: readers elsewhere may still be loading the previous one.
    const keep = new Set([...keywordFiles(after), ...previous]);
    for (const o of await this.store.list(`${SHARED_STATE_DIR}/${KEYWORD_PREFIX}`).catch(() => [])) {
      const f = o.key.slice(SHARED_STATE_DIR.length + 1);
      if (!keep.has(f)) await this.store.delete(o.key).catch(() => undefined);
    }
  }

  /**
   * New keyword files get a name no other writer can pick (`keyword-7-<random>.bin`), in the
   * mirror and in its manifest: a writer whose lock expired mid-pass may still upload its files,
   * but never over the ones a committed manifest names.
   */
  private uniqueKeywordNames(manifest: Manifest | null, previous: Set<string>): Manifest {
    if (!manifest) throw new Error(`the manifest in ${this.stateDir} is unreadable; run \`opencode-rag index --force\``);
    const tag = randomBytes(6).toString("hex");
    const rename = (f: string): string => {
      if (previous.has(f)) return f;
      const m = /^(keyword-\d+)(\..+)$/.exec(f);
      if (!m) return f;
      const unique = `${m[1]}-${tag}${m[2]}`;
      renameSync(join(this.stateDir, f), join(this.stateDir, unique));
      return unique;
    };
    if (manifest.keywordFile) manifest.keywordFile = rename(manifest.keywordFile);
    manifest.keywordDeltas = (manifest.keywordDeltas ?? []).map(rename);
    // The mirror's manifest names the renamed files, as the bucket's will.
    writeFileAtomic(join(this.stateDir, MANIFEST_FILE), JSON.stringify(manifest));
    return manifest;
  }

  /**
   * This pass's commit lost to another writer (its lock expired while it ran): the mirror is
   * dropped so the next pull takes the bucket's manifest, and the next pass reconciles the table.
   */
  private lost(): Error {
    removeQuietly(join(this.stateDir, MANIFEST_FILE));
    delete this.record.etags[MANIFEST_FILE];
    delete this.record.manifestHash;
    this.saveRecord();
    return new CommitLostError(this.location);
  }

  /** Under the bucket's lock: `clearTable`, then the index's files in the bucket and the mirror's record. */
  async clear(clearTable: () => Promise<void>): Promise<void> {
    const lock = await acquireRemoteLock(this.store, SHARED_LOCK, this.options.lock);
    try {
      // The manifest first: from then on no reader trusts what is left.
      await this.store.delete(this.remote(MANIFEST_FILE));
      await clearTable();
      for (const o of await this.store.list(`${SHARED_STATE_DIR}/`)) {
        if (o.key !== SHARED_LOCK) await this.store.delete(o.key);
      }
      this.record = { location: this.location, etags: {} };
      rmSync(join(this.stateDir, SYNC_FILE), { force: true });
    } finally {
      await lock.release();
    }
  }

  close(): void {
    this.store.close();
  }
}


/** The shared index of an `s3://` store, or null for a local folder and other URIs. */
export function openSharedIndex(storeUri: string, storageOptions: Record<string, string>, stateDir: string, logger: Logger): SharedIndex | null {
  if (!isS3Uri(storeUri)) return null;
  return new SharedIndex({ store: new S3ObjectStore(storeUri, storageOptions), stateDir, logger });
}
