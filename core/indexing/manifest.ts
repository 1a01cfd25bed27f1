// The manifest is the index's commit record: it is written (atomically) only after the store
// rows and the keyword snapshot it names are durable, so whatever a reader finds in it is
// backed by data. Everything not named by the manifest is, by definition, uncommitted.
//
// Two forms on disk, both read: a small JSON header (`manifest.json`) naming a binary per-file
// table (`manifest-files-<generation>-<random>.bin`, manifest-files.ts), written by local
// passes; and the older one-document form with the files inline, which a shared index's mirror
// keeps and which indexes written before the split still have until their next commit.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readJsonState, removeQuietly, writeFileAtomic, writeJsonAtomic } from "./atomic-file.js";
import { applyDelta, encodeDelta, isDeltaList, type FilesDelta, type FileTableRef } from "./manifest-deltas.js";
import { countFiles, decodeFilesSteps, encodeFilesSteps, entryChunkCount, type FileCounts, type ManifestFileEntry } from "./manifest-files.js";
import { runAtOnce, runInSlices, type Steps } from "../yield.js";

export type { FileCounts, FileTableRef, ManifestFileEntry };

export { countEntry, countFiles, entryChunkCount, setEntry } from "./manifest-files.js";

export const MANIFEST_FILE = "manifest.json";
/** The in-memory version, and the one-document form's. */
export const MANIFEST_VERSION = 1;
/** The header and file table form. */
const MANIFEST_SPLIT_VERSION = 2;
/**
 * The same with deltas beside the table. A version of its own: an older reader would take the
 * table alone for the whole and index from a wrong list; this way it finds the manifest of an
 * unknown version and rebuilds.
 */
const MANIFEST_DELTAS_VERSION = 3;
const FILES_FILE_PREFIX = "manifest-files-";
const FILES_FILE_PATTERN = /^manifest-files-\d+-[0-9a-f]+\.bin$/;


export interface Manifest {
  version: number;
  /** ISO time of the last successful pass. */
  lastIndexedAt: string;
  provider: string;
  model: string;
  /** null in keyword-only mode. */
  dimension: number | null;
  /** Fingerprint of every setting that changes chunk boundaries or texts. */
  chunkingFingerprint: string;
  /** Store version that matches this manifest; a store found ahead of it is rolled back. */
  storeCheckpoint: number;
  /** Rows the store holds when it matches this manifest. */
  chunkCount: number;
  /** File name (in the state folder) of the keyword index snapshot. */
  keywordFile: string | null;
  /**
   * Small changes since that snapshot, applied in order on load (files in the state folder):
   * a one-file edit writes a few KB instead of the whole keyword index.
   */
  keywordDeltas?: string[];
  /** Increases with every committed pass; readers reload when it changes. */
  generation: number;
  /** Local stores: the table's files and sizes at this commit (a missing or resized one means damage). */
  storeFiles?: Record<string, number>;
  /** HEAD of the workspace's git repository at the last pass (git watch backend). */
  gitHead?: string | null;
  files: Record<string, ManifestFileEntry>;
}

/**
 * A file table as a commit of this process wrote it, kept for the process's next pass: that
 * pass takes it instead of decoding the table again (at 100k files the decode is most of a
 * one-file pass). Matched by the names and lengths of the table and its deltas, which a commit
 * of any other process (or a recovery) changes.
 */
export interface WrittenFileTable extends FileTableRef {
  files: Record<string, ManifestFileEntry>;
}

export type ManifestRead =
  | {
      status: "ok";
      manifest: Manifest;
      /** Read from the older one-document form: the next commit writes the header and body form. */
      inline?: boolean;
      /** The file table read (the header and body form): what a pass's edits are a delta of. */
      table?: FileTableRef;
      /** The table's counts as its header gives them (absent in the one-document form). */
      counts?: FileCounts;
    }
  | { status: "missing" }
  | { status: "corrupt"; reason: string };

/** Everything but the per-file table: what searches and the sidebar need. */
export type ManifestHeader = Omit<Manifest, "files"> & {
  /** Files with at least one chunk; absent in the one-document form. */
  indexedFiles?: number;
  /** Files not skipped on purpose; absent in the one-document form. */
  listedFiles?: number;
};

export type ManifestHeaderRead = { status: "ok"; header: ManifestHeader } | { status: "missing" } | { status: "corrupt"; reason: string };

/** The header as stored: the file table's name and length (and its deltas') beside the fields. */
interface StoredHeader extends ManifestHeader {
  filesFile?: string;
  filesBytes?: number;
  filesDeltas?: FilesDelta[];
  files?: Record<string, ManifestFileEntry>;
}

export function manifestPath(stateDir: string): string {
  return join(stateDir, MANIFEST_FILE);
}

function isValid(m: unknown): m is StoredHeader {
  if (!m || typeof m !== "object") return false;
  const x = m as Partial<StoredHeader>;
  const split = typeof x.filesFile === "string" && FILES_FILE_PATTERN.test(x.filesFile) && typeof x.filesBytes === "number";
  const table =
    x.version === MANIFEST_VERSION
      ? !!x.files && typeof x.files === "object"
      : x.version === MANIFEST_SPLIT_VERSION
        ? split && x.filesDeltas === undefined
        : x.version === MANIFEST_DELTAS_VERSION && split && isDeltaList(x.filesDeltas);
  return (
    table &&
    typeof x.provider === "string" &&
    typeof x.model === "string" &&
    typeof x.chunkingFingerprint === "string" &&
    typeof x.storeCheckpoint === "number" &&
    typeof x.chunkCount === "number" &&
    typeof x.generation === "number"
  );
}

function readHeader(stateDir: string): { status: "ok"; header: StoredHeader } | { status: "missing" } | { status: "corrupt"; reason: string } {
  const raw = readJsonState<unknown>(manifestPath(stateDir));
  if (raw === null) return { status: "missing" };
  if (raw === "corrupt") return { status: "corrupt", reason: "manifest.json is not valid JSON" };
  if (!isValid(raw)) return { status: "corrupt", reason: "manifest.json has an unknown shape or version" };
  return { status: "ok", header: raw };
}

/** The manifest without its per-file table: one small file in the header and body form. */
export function readManifestHeader(stateDir: string): ManifestHeaderRead {
  const read = readHeader(stateDir);
  if (read.status !== "ok") return read;
  const { files: _files, filesFile: _name, filesBytes: _bytes, filesDeltas: _deltas, ...header } = read.header;
  return { status: "ok", header };
}

/** Files of the committed index (as `status` counts them), or null when there is none. */
export function committedFileCount(stateDir: string): number | null {
  // The header counts them; a manifest of the older inline form is counted here.
  const header = readManifestHeader(stateDir);
  if (header.status !== "ok") return null;
  if (typeof header.header.indexedFiles === "number") return header.header.indexedFiles;
  const read = readManifest(stateDir);
  if (read.status !== "ok") return null;
  let files = 0;
  for (const path in read.manifest.files) if (entryChunkCount(read.manifest.files[path]) > 0) files++;
  return files;
}

export function readManifest(stateDir: string): ManifestRead {
  return runAtOnce(readManifestSteps(stateDir));
}

/**
 * readManifest() with a turn of the event loop every few thousand entries: a background pass
 * shares its thread with its host, and at 100k files the table took ~200 ms to decode at once.
 * A table this process wrote (`written`) is taken as it is when the header still names it: the
 * caller then owns its entries, as it would a decoded table's.
 */
export function readManifestInSlices(stateDir: string, sliceMs?: number, written?: WrittenFileTable | null): Promise<ManifestRead> {
  return runInSlices(readManifestSteps(stateDir, written ?? null), sliceMs);
}

function* readManifestSteps(stateDir: string, written: WrittenFileTable | null = null): Steps<ManifestRead> {
  // A commit may replace the header and remove the table it named between the two reads here:
  // then the new header names a new table, and the read starts over.
  for (let attempt = 0; ; attempt++) {
    const read = readHeader(stateDir);
    if (read.status !== "ok") return read;
    const { filesFile, filesBytes, filesDeltas, indexedFiles, listedFiles, ...fields } = read.header;
    if (read.header.version === MANIFEST_VERSION) {
      for (const entry of Object.values(fields.files!)) {
        if (!entry || typeof entry.size !== "number" || typeof entry.mtimeMs !== "number" || !Array.isArray(entry.chunkIds)) {
          return { status: "corrupt", reason: "manifest.json has a malformed file entry" };
        }
      }
      return { status: "ok", manifest: fields as Manifest, inline: true };
    }
    const table: FileTableRef = { filesFile: filesFile!, filesBytes: filesBytes!, deltas: filesDeltas ?? [] };
    const counts = typeof indexedFiles === "number" && typeof listedFiles === "number" ? { chunks: fields.chunkCount, indexedFiles, listedFiles } : undefined;
    const manifestWith = (files: Record<string, ManifestFileEntry>): ManifestRead => ({ status: "ok", manifest: { ...fields, version: MANIFEST_VERSION, files }, table, ...(counts ? { counts } : {}) });
    if (written && sameTable(written, table)) return manifestWith(written.files);
    const parts = readTableFiles(stateDir, table);
    if (parts === "gone" && attempt < 3) continue;
    if (typeof parts === "string") return { status: "corrupt", reason: parts === "gone" ? `manifest.json names a file table ${filesFile} that cannot be read` : parts };
    let files: Record<string, ManifestFileEntry>;
    try {
      files = yield* decodeFilesSteps(parts.body);
    } catch (err) {
      return { status: "corrupt", reason: `the manifest's file table ${filesFile} is damaged (${(err as Error).message})` };
    }
    for (const [i, delta] of parts.deltas.entries()) {
      const reason = applyDelta(files, delta);
      if (reason) return { status: "corrupt", reason: `the manifest's file table delta ${table.deltas[i].file} is damaged (${reason})` };
    }
    return manifestWith(files);
  }
}

function sameTable(a: FileTableRef, b: FileTableRef): boolean {
  return a.filesFile === b.filesFile && a.filesBytes === b.filesBytes && a.deltas.length === b.deltas.length && a.deltas.every((d, i) => d.file === b.deltas[i].file && d.bytes === b.deltas[i].bytes);
}

/** The bytes of a table and its deltas, checked against the lengths the header gives; "gone" or a reason when not. */
function readTableFiles(stateDir: string, table: FileTableRef): { body: Buffer; deltas: Buffer[] } | "gone" | string {
  const read = (what: string, file: string, bytes: number): Buffer | "gone" | string => {
    let got: Buffer;
    try {
      got = readFileSync(join(stateDir, file));
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : `manifest.json names a ${what} ${file} that cannot be read`;
    }
    return got.length === bytes ? got : `the manifest's ${what} ${file} has ${got.length} bytes, not ${bytes}`;
  };
  const body = read("file table", table.filesFile, table.filesBytes);
  if (typeof body === "string") return body;
  const deltas: Buffer[] = [];
  for (const d of table.deltas) {
    const got = read("file table delta", d.file, d.bytes);
    if (typeof got === "string") return got;
    deltas.push(got);
  }
  return { body, deltas };
}

export interface WriteManifestOptions {
  /**
   * One JSON document, files inline: the form a shared index's mirror keeps, since the bucket's
   * copy is merged and rewritten as text by the shared index.
   */
  inline?: boolean;
  /**
   * The table on disk the manifest's files were read from, and the paths whose entries were
   * set or removed since: written as a delta beside that table while small, else the whole
   * table again. None: the whole table.
   */
  edits?: { base: FileTableRef; paths: ReadonlySet<string> };
  /** countFiles() of the files, when the caller took it already (a pass's commit does). */
  counts?: FileCounts;
}

/**
 * Commits a manifest: its file table (or a delta of it) under a new name first, then the
 * header that names it (atomically: the commit point), then the tables and deltas no header
 * names any more. Returns the table written (null for the one-document form), with
 * `manifest.files` itself.
 */
export function writeManifest(stateDir: string, manifest: Manifest, options: WriteManifestOptions = {}): WrittenFileTable | null {
  return runAtOnce(writeManifestSteps(stateDir, manifest, options));
}

/** writeManifest() with a turn of the event loop every few thousand entries (readManifestInSlices). */
export function writeManifestInSlices(stateDir: string, manifest: Manifest, options: WriteManifestOptions = {}, sliceMs?: number): Promise<WrittenFileTable | null> {
  return runInSlices(writeManifestSteps(stateDir, manifest, options), sliceMs);
}

function* writeManifestSteps(stateDir: string, manifest: Manifest, options: WriteManifestOptions): Steps<WrittenFileTable | null> {
  if (options.inline) {
    writeJsonAtomic(manifestPath(stateDir), { ...manifest, version: MANIFEST_VERSION });
    removeFileTables(stateDir, new Set());
    return null;
  }
  const { files, ...fields } = manifest;
  const table = options.edits ? writeDelta(stateDir, manifest, options.edits) : null;
  if (table) {
    const { indexedFiles, listedFiles } = options.counts ?? countFiles(files);
    commitHeader(stateDir, { ...fields, indexedFiles, listedFiles }, table);
    return { ...table, files };
  }
  const { body, indexedFiles, listedFiles } = yield* encodeFilesSteps(files);
  const filesFile = `${FILES_FILE_PREFIX}${manifest.generation}-${randomBytes(4).toString("hex")}.bin`;
  writeFileAtomic(join(stateDir, filesFile), body);
  const written: FileTableRef = { filesFile, filesBytes: body.length, deltas: [] };
  commitHeader(stateDir, { ...fields, indexedFiles, listedFiles }, written);
  return { ...written, files };
}

/**
 * The edited entries written as a delta beside the base table, and the table the header then
 * names; no file when nothing was edited; null when the delta would be too big (the caller
 * writes the whole table).
 */
function writeDelta(stateDir: string, manifest: Manifest, edits: NonNullable<WriteManifestOptions["edits"]>): FileTableRef | null {
  const { base, paths } = edits;
  if (paths.size === 0) return base;
  const bytes = encodeDelta(manifest.files, base, paths);
  if (!bytes) return null;
  const file = `${FILES_FILE_PREFIX}${manifest.generation}-${randomBytes(4).toString("hex")}.delta.json`;
  writeFileAtomic(join(stateDir, file), bytes);
  return { ...base, deltas: [...base.deltas, { file, bytes: bytes.length }] };
}

/** Writes the header naming `table` (the commit point), then removes the tables and deltas it does not name. */
function commitHeader(stateDir: string, fields: Omit<StoredHeader, "filesFile" | "filesBytes" | "filesDeltas">, table: FileTableRef): void {
  const withDeltas = table.deltas.length > 0;
  const header: StoredHeader = {
    ...fields,
    version: withDeltas ? MANIFEST_DELTAS_VERSION : MANIFEST_SPLIT_VERSION,
    filesFile: table.filesFile,
    filesBytes: table.filesBytes,
    ...(withDeltas ? { filesDeltas: table.deltas } : {}),
  };
  writeJsonAtomic(manifestPath(stateDir), header);
  removeFileTables(stateDir, new Set([table.filesFile, ...table.deltas.map((d) => d.file)]));
}

/** Removes file tables and deltas other than `keep` (left by earlier commits, or by a pass killed before its header). */
function removeFileTables(stateDir: string, keep: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = readdirSync(stateDir);
  } catch {
    return;
  }
  for (const n of names) if (n.startsWith(FILES_FILE_PREFIX) && !keep.has(n)) removeQuietly(join(stateDir, n));
}

/** Removes the manifest and its file tables (clearing the index). */
export function removeManifest(stateDir: string): void {
  removeQuietly(manifestPath(stateDir));
  removeFileTables(stateDir, new Set());
}

export function emptyManifest(provider: string, model: string, dimension: number | null, chunkingFingerprint: string): Manifest {
  return {
    version: MANIFEST_VERSION,
    lastIndexedAt: "",
    provider,
    model,
    dimension,
    chunkingFingerprint,
    storeCheckpoint: 0,
    chunkCount: 0,
    keywordFile: null,
    generation: 0,
    gitHead: null,
    files: {},
  };
}
