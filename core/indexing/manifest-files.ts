// The manifest's per-file table in a compact binary form (the `filesFile` its header names).
// At 100k files the one-document JSON form is ~19 MB that every pass, status call and search
// parsed whole; here a pass that changes nothing decodes paths, sizes and mtimes only. Content
// hashes and chunk ids stay as bytes until a pass asks for an entry's (a changed file's).
//
// Layout, little-endian: magic (8) | entries n (u32) | chunk ids total (u32) |
// size f64[n] | mtime f64[n] | chunk count u32[n] | sha1 20 bytes[n] | chunk id 16 bytes[total] |
// paths (u32 length, UTF-8, NUL-separated) | extras (u32 length, JSON: skip reasons by entry,
// and whole entries whose hash or ids are not the usual hex, e.g. written by hand).
import { ID_BYTES, isHexId } from "../keyword/hex-ids.js";
import { LITTLE_ENDIAN, unsignedLE } from "../little-endian.js";
import { inBlocks, type Steps } from "../yield.js";

/** Entries decoded or encoded between pauses (`Steps`): at 100k files either took ~200 ms at once. */
const ENTRIES_PER_STEP = 8192;

/** One file's entry. Entries read from disk decode `hash` and `chunkIds` on access: copy them by field, not by spread. */
export interface ManifestFileEntry {
  size: number;
  mtimeMs: number;
  /** sha1 of the file's bytes. */
  hash: string;
  chunkIds: string[];
  /** Why the file has no chunks on purpose (binary, no handler), so it is not re-read until it changes. */
  skipped?: string;
}

const MAGIC = Buffer.from("RAGFILE1", "latin1");
const HASH_BYTES = 20;
const HASH_HEX = /^[0-9a-f]{40}$/;

interface Extras {
  /** [entry index, reason] for entries skipped on purpose. */
  skipped?: Array<[number, string]>;
  /** Entries kept whole, by path. */
  other?: Record<string, ManifestFileEntry>;
}

/** The decoded columns of one body; entries point into it by index. */
class FilesBody {
  /** First chunk id of each entry (prefix sums of the counts), filled on the first look-up. */
  private firstChunk: Uint32Array | null = null;

  constructor(
    readonly bytes: Buffer,
    readonly counts: Uint32Array,
    readonly hashesAt: number,
    readonly idsAt: number,
  ) {}

  hashBytes(i: number): Buffer {
    return this.bytes.subarray(this.hashesAt + i * HASH_BYTES, this.hashesAt + (i + 1) * HASH_BYTES);
  }

  idBytes(i: number): Buffer {
    const start = this.idsStart(i);
    return this.bytes.subarray(start, start + this.counts[i] * ID_BYTES);
  }

  /** Where entry i's chunk ids start in the bytes (i = the entry count: where the ids end). */
  idsStart(i: number): number {
    if (!this.firstChunk) {
      const first = new Uint32Array(this.counts.length + 1);
      let sum = 0;
      for (let k = 0; k < this.counts.length; k++) {
        first[k] = sum;
        sum += this.counts[k];
      }
      first[this.counts.length] = sum;
      this.firstChunk = first;
    }
    return this.idsAt + this.firstChunk[i] * ID_BYTES;
  }
}

/**
 * One file's entry read from a body: size and mtime are plain fields (the diff reads them for
 * every file); the hash and chunk ids are decoded on first access. Assignments replace them.
 */
export class StoredFileEntry implements ManifestFileEntry {
  skipped?: string;
  #hash: string | undefined;
  #chunkIds: string[] | undefined;

  constructor(
    public size: number,
    public mtimeMs: number,
    /** Where the entry was read (the encoder copies runs of unchanged entries from there). */
    readonly body: FilesBody,
    readonly index: number,
  ) {}

  get hash(): string {
    return (this.#hash ??= this.body.hashBytes(this.index).toString("hex"));
  }
  set hash(value: string) {
    this.#hash = value;
  }

  get chunkIds(): string[] {
    if (this.#chunkIds === undefined) {
      const raw = this.body.idBytes(this.index);
      const ids: string[] = new Array(raw.length / ID_BYTES);
      for (let k = 0; k < ids.length; k++) ids[k] = raw.toString("hex", k * ID_BYTES, (k + 1) * ID_BYTES);
      this.#chunkIds = ids;
    }
    return this.#chunkIds;
  }
  set chunkIds(value: string[]) {
    this.#chunkIds = value;
  }

  /** Chunks of this file, without decoding their ids. */
  get chunkCount(): number {
    return this.#chunkIds?.length ?? this.body.counts[this.index];
  }

  /** Whether the hash is still the bytes read (not replaced): the writer copies them. */
  get hashIsRaw(): boolean {
    return this.#hash === undefined;
  }

  /** Whether the chunk ids are still the bytes read (not replaced or decoded): the writer copies them. */
  get chunkIdsAreRaw(): boolean {
    return this.#chunkIds === undefined;
  }

  toJSON(): ManifestFileEntry {
    return { size: this.size, mtimeMs: this.mtimeMs, hash: this.hash, chunkIds: this.chunkIds, ...(this.skipped !== undefined ? { skipped: this.skipped } : {}) };
  }
}

/** files[path] = entry, where a file named __proto__ is a key like any other (as JSON.parse makes it), not a prototype. */
export function setEntry(files: Record<string, ManifestFileEntry>, path: string, entry: ManifestFileEntry): void {
  if (path === "__proto__") Object.defineProperty(files, path, { value: entry, enumerable: true, writable: true, configurable: true });
  else files[path] = entry;
}

/** Chunks an entry holds; an entry read from a body answers without decoding its ids. */
export function entryChunkCount(entry: ManifestFileEntry): number {
  return entry instanceof StoredFileEntry ? entry.chunkCount : entry.chunkIds.length;
}

/** What the header counts of a file table. A pass keeps them current as it edits entries (`editEntry`). */
export interface FileCounts {
  /** Chunk ids over all entries: the rows the store should hold. */
  chunks: number;
  /** Entries with at least one chunk. */
  indexedFiles: number;
  /** Entries not skipped on purpose. */
  listedFiles: number;
}

export function countFiles(files: Record<string, ManifestFileEntry>): FileCounts {
  const counts: FileCounts = { chunks: 0, indexedFiles: 0, listedFiles: 0 };
  for (const path in files) countEntry(counts, files[path], 1);
  return counts;
}

/** Adds one entry to the counts (`sign` 1), or takes it out of them (-1). */
export function countEntry(counts: FileCounts, entry: ManifestFileEntry, sign: 1 | -1): void {
  const n = entryChunkCount(entry);
  counts.chunks += sign * n;
  if (n > 0) counts.indexedFiles += sign;
  if (!entry.skipped) counts.listedFiles += sign;
}

/** `n` little-endian doubles of `bytes` at `offset`: a view where byte order and alignment allow, else a copy. */
function f64At(bytes: Buffer, offset: number, n: number): Float64Array {
  const at = bytes.byteOffset + offset;
  if (LITTLE_ENDIAN && at % 8 === 0) return new Float64Array(bytes.buffer, at, n);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = bytes.readDoubleLE(offset + 8 * i);
  return out;
}

/** The per-file table of a body, in steps; throws a one-line reason when the bytes are not a whole body. */
export function* decodeFilesSteps(bytes: Buffer): Steps<Record<string, ManifestFileEntry>> {
  const need = (end: number) => {
    if (end > bytes.length) throw new Error("the file table is truncated");
  };
  need(16);
  if (!bytes.subarray(0, 8).equals(MAGIC)) throw new Error("the file table has an unknown format");
  const n = bytes.readUInt32LE(8);
  const totalIds = bytes.readUInt32LE(12);
  const sizesAt = 16;
  const mtimesAt = sizesAt + n * 8;
  const countsAt = mtimesAt + n * 8;
  const hashesAt = countsAt + n * 4;
  const idsAt = hashesAt + n * HASH_BYTES;
  const pathsAt = idsAt + totalIds * ID_BYTES;
  need(pathsAt + 4);
  const pathsLen = bytes.readUInt32LE(pathsAt);
  const extrasAt = pathsAt + 4 + pathsLen;
  need(extrasAt + 4);
  const extrasLen = bytes.readUInt32LE(extrasAt);
  if (extrasAt + 4 + extrasLen !== bytes.length) throw new Error("the file table has a wrong length");

  const sizes = f64At(bytes, sizesAt, n);
  const mtimes = f64At(bytes, mtimesAt, n);
  const counts = unsignedLE(bytes.subarray(countsAt), 4, n);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += counts[i];
  if (sum !== totalIds) throw new Error("the file table's chunk counts do not add up");
  const paths = n === 0 ? [] : bytes.toString("utf8", pathsAt + 4, pathsAt + 4 + pathsLen).split("\0");
  if (paths.length !== n) throw new Error("the file table's paths do not match its entries");
  const extras = JSON.parse(bytes.toString("utf8", extrasAt + 4, extrasAt + 4 + extrasLen)) as Extras;

  const body = new FilesBody(bytes, counts, hashesAt, idsAt);
  const files: Record<string, ManifestFileEntry> = {};
  const entries: StoredFileEntry[] = new Array(n);
  yield* inBlocks(n, ENTRIES_PER_STEP, (from, to) => {
    for (let i = from; i < to; i++) {
      entries[i] = new StoredFileEntry(sizes[i], mtimes[i], body, i);
      setEntry(files, paths[i], entries[i]);
    }
  });
  for (const [i, reason] of extras.skipped ?? []) {
    if (!entries[i]) throw new Error("the file table names a skip reason for no entry");
    entries[i].skipped = reason;
  }
  for (const [path, entry] of Object.entries(extras.other ?? {})) files[path] = entry;
  return files;
}

/** Whether an entry fits the columns (the usual hex hash and ids); otherwise it is kept whole. */
function fitsColumns(entry: ManifestFileEntry): boolean {
  if (entry instanceof StoredFileEntry) {
    if (!entry.hashIsRaw && !HASH_HEX.test(entry.hash)) return false;
    return entry.chunkIdsAreRaw || entry.chunkIds.every(isHexId);
  }
  return typeof entry.hash === "string" && HASH_HEX.test(entry.hash) && entry.chunkIds.every(isHexId);
}

/** A per-file table's body, and the counts its header keeps. */
export interface EncodedFiles {
  body: Buffer;
  /** Entries with at least one chunk. */
  indexedFiles: number;
  /** Entries not skipped on purpose. */
  listedFiles: number;
}

/** The body bytes for a per-file table, in steps. */
export function* encodeFilesSteps(files: Record<string, ManifestFileEntry>): Steps<EncodedFiles> {
  const paths: string[] = [];
  const entries: ManifestFileEntry[] = [];
  const extras: Extras = {};
  let totalIds = 0;
  const counts: FileCounts = { chunks: 0, indexedFiles: 0, listedFiles: 0 };
  const allPaths = Object.keys(files);
  yield* inBlocks(allPaths.length, ENTRIES_PER_STEP, (from, to) => {
    for (let k = from; k < to; k++) {
      const path = allPaths[k];
      const entry = files[path];
      countEntry(counts, entry, 1);
      if (!fitsColumns(entry) || path.includes("\0")) {
        (extras.other ??= {})[path] = entry instanceof StoredFileEntry ? entry.toJSON() : entry;
        continue;
      }
      if (entry.skipped !== undefined) (extras.skipped ??= []).push([paths.length, entry.skipped]);
      paths.push(path);
      entries.push(entry);
      totalIds += entryChunkCount(entry);
    }
  });
  const n = entries.length;
  const pathBytes = Buffer.from(paths.join("\0"), "utf8");
  const extraBytes = Buffer.from(JSON.stringify(extras), "utf8");
  const hashesAt = 16 + n * 20;
  const idsAt = hashesAt + n * HASH_BYTES;
  const pathsAt = idsAt + totalIds * ID_BYTES;
  const out = Buffer.alloc(pathsAt + 4 + pathBytes.length + 4 + extraBytes.length);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(n, 8);
  out.writeUInt32LE(totalIds, 12);
  const columns = numberColumns(out, n);
  // Entries read from one body and unchanged since, one after another in its order (most of a
  // table rewritten after a small pass), have their hashes and ids copied in one piece each.
  const run = new UnchangedRun(out, hashesAt);
  let at = idsAt;
  yield* inBlocks(n, ENTRIES_PER_STEP, (from, to) => {
    for (let i = from; i < to; i++) {
      const e = entries[i];
      const count = entryChunkCount(e);
      columns.set(i, e.size, e.mtimeMs, count);
      if (e instanceof StoredFileEntry && e.hashIsRaw && e.chunkIdsAreRaw) {
        run.add(e, i, at);
        at += count * ID_BYTES;
        continue;
      }
      run.flush();
      if (e instanceof StoredFileEntry && e.hashIsRaw) e.body.bytes.copy(out, hashesAt + i * HASH_BYTES, e.body.hashesAt + e.index * HASH_BYTES, e.body.hashesAt + (e.index + 1) * HASH_BYTES);
      else out.write(e.hash, hashesAt + i * HASH_BYTES, HASH_BYTES, "hex");
      if (e instanceof StoredFileEntry && e.chunkIdsAreRaw) at += e.body.bytes.copy(out, at, e.body.idsStart(e.index), e.body.idsStart(e.index + 1));
      else for (const id of e.chunkIds) at += out.write(id, at, ID_BYTES, "hex");
    }
  });
  run.flush();
  out.writeUInt32LE(pathBytes.length, pathsAt);
  pathBytes.copy(out, pathsAt + 4);
  out.writeUInt32LE(extraBytes.length, pathsAt + 4 + pathBytes.length);
  extraBytes.copy(out, pathsAt + 8 + pathBytes.length);
  return { body: out, indexedFiles: counts.indexedFiles, listedFiles: counts.listedFiles };
}

/** Writes entry i's size, mtime and chunk count into the body's columns. */
interface NumberColumns {
  set(i: number, size: number, mtimeMs: number, count: number): void;
}

/** The size, mtime and count columns of `out` (n entries): typed views where byte order and alignment allow. */
function numberColumns(out: Buffer, n: number): NumberColumns {
  const at = out.byteOffset + 16;
  if (LITTLE_ENDIAN && at % 8 === 0) {
    const sizes = new Float64Array(out.buffer, at, n);
    const mtimes = new Float64Array(out.buffer, at + n * 8, n);
    const counts = new Uint32Array(out.buffer, at + n * 16, n);
    return {
      set(i, size, mtimeMs, count) {
        sizes[i] = size;
        mtimes[i] = mtimeMs;
        counts[i] = count;
      },
    };
  }
  return {
    set(i, size, mtimeMs, count) {
      out.writeDoubleLE(size, 16 + i * 8);
      out.writeDoubleLE(mtimeMs, 16 + n * 8 + i * 8);
      out.writeUInt32LE(count, 16 + n * 16 + i * 4);
    },
  };
}

/** Consecutive unchanged entries of one body, in its order, whose hashes and ids are copied at once. */
class UnchangedRun {
  private body: FilesBody | null = null;
  /** The first entry's index in the body and in the table written, and where its ids go. */
  private from = 0;
  private toEntry = 0;
  private idsTo = 0;
  private length = 0;

  constructor(
    private readonly out: Buffer,
    private readonly hashesAt: number,
  ) {}

  add(e: StoredFileEntry, entry: number, idsAt: number): void {
    if (this.body !== e.body || e.index !== this.from + this.length) {
      this.flush();
      this.body = e.body;
      this.from = e.index;
      this.toEntry = entry;
      this.idsTo = idsAt;
    }
    this.length++;
  }

  flush(): void {
    const body = this.body;
    if (!body || this.length === 0) return;
    const end = this.from + this.length;
    body.bytes.copy(this.out, this.hashesAt + this.toEntry * HASH_BYTES, body.hashesAt + this.from * HASH_BYTES, body.hashesAt + end * HASH_BYTES);
    body.bytes.copy(this.out, this.idsTo, body.idsStart(this.from), body.idsStart(end));
    this.body = null;
    this.length = 0;
  }
}
