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
import { decodeFilesSteps, encodeFilesSteps, entryChunkCount, type ManifestFileEntry } from "./manifest-files.js";
import { runAtOnce, runInSlices, type Steps } from "../yield.js";

export type { ManifestFileEntry };

export { entryChunkCount } from "./manifest-files.js";

export const MANIFEST_FILE = "manifest.json";
/** The in-memory version, and the one-document form's. */
export const MANIFEST_VERSION = 1;
/** The header and file table form. */
const MANIFEST_SPLIT_VERSION = 2;
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
 * one-file pass). Matched by the table's name and length, which a commit of any other process
 * (or a recovery) changes.
 */
export interface WrittenFileTable {
  filesFile: string;
  filesBytes: number;
  files: Record<string, ManifestFileEntry>;
}

export type ManifestRead =
  | {
      status: "ok";
      manifest: Manifest;
      /** Read from the older one-document form: the next commit writes the header and body form. */
      inline?: boolean;
      /** The file table read (the header and body form): what a pass that changes nothing leaves on disk. */
      table?: { filesFile: string; filesBytes: number };
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

/** The header as stored: the file table's name and length beside the fields. */
interface StoredHeader extends ManifestHeader {
  filesFile?: string;
  filesBytes?: number;
  files?: Record<string, ManifestFileEntry>;
}

export function manifestPath(stateDir: string): string {
  return join(stateDir, MANIFEST_FILE);
}

function isValid(m: unknown): m is StoredHeader {
  if (!m || typeof m !== "object") return false;
  const x = m as Partial<StoredHeader>;
  const table =
    x.version === MANIFEST_VERSION
      ? !!x.files && typeof x.files === "object"
      : x.version === MANIFEST_SPLIT_VERSION && typeof x.filesFile === "string" && FILES_FILE_PATTERN.test(x.filesFile) && typeof x.filesBytes === "number";
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
  const { files: _files, filesFile: _name, filesBytes: _bytes, ...header } = read.header;
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
    const { filesFile, filesBytes, indexedFiles: _i, listedFiles: _l, ...fields } = read.header;
    if (read.header.version === MANIFEST_VERSION) {
      for (const entry of Object.values(fields.files!)) {
        if (!entry || typeof entry.size !== "number" || typeof entry.mtimeMs !== "number" || !Array.isArray(entry.chunkIds)) {
          return { status: "corrupt", reason: "manifest.json has a malformed file entry" };
        }
      }
      return { status: "ok", manifest: fields as Manifest, inline: true };
    }
    const table = { filesFile: filesFile!, filesBytes: filesBytes! };
    if (written && written.filesFile === filesFile && written.filesBytes === filesBytes) {
      return { status: "ok", manifest: { ...fields, version: MANIFEST_VERSION, files: written.files }, table };
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(stateDir, filesFile!));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" && attempt < 3) continue;
      return { status: "corrupt", reason: `manifest.json names a file table ${filesFile} that cannot be read` };
    }
    if (bytes.length !== filesBytes) return { status: "corrupt", reason: `the manifest's file table ${filesFile} has ${bytes.length} bytes, not ${filesBytes}` };
    try {
      return { status: "ok", manifest: { ...fields, version: MANIFEST_VERSION, files: yield* decodeFilesSteps(bytes) }, table };
    } catch (err) {
      return { status: "corrupt", reason: `the manifest's file table ${filesFile} is damaged (${(err as Error).message})` };
    }
  }
}

export interface WriteManifestOptions {
  /**
   * One JSON document, files inline: the form a shared index's mirror keeps, since the bucket's
   * copy is merged and rewritten as text by the shared index.
   */
  inline?: boolean;
}

/**
 * Commits a manifest: the file table under a new name first, then the header that names it
 * (atomically: the commit point), then the tables no header names any more. Returns the table
 * written (null for the one-document form), `manifest.files` itself.
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
    removeFileTables(stateDir, null);
    return null;
  }
  const { files, ...fields } = manifest;
  const { body, indexedFiles, listedFiles } = yield* encodeFilesSteps(files);
  const filesFile = `${FILES_FILE_PREFIX}${manifest.generation}-${randomBytes(4).toString("hex")}.bin`;
  writeFileAtomic(join(stateDir, filesFile), body);
  const header: StoredHeader = { ...fields, version: MANIFEST_SPLIT_VERSION, filesFile, filesBytes: body.length, indexedFiles, listedFiles };
  writeJsonAtomic(manifestPath(stateDir), header);
  removeFileTables(stateDir, filesFile);
  return { filesFile, filesBytes: body.length, files };
}

/** Removes file tables other than `keep` (left by earlier commits, or by a pass killed before its header). */
function removeFileTables(stateDir: string, keep: string | null): void {
  let names: string[];
  try {
    names = readdirSync(stateDir);
  } catch {
    return;
  }
  for (const n of names) if (n.startsWith(FILES_FILE_PREFIX) && n !== keep) removeQuietly(join(stateDir, n));
}

/** Removes the manifest and its file tables (clearing the index). */
export function removeManifest(stateDir: string): void {
  removeQuietly(manifestPath(stateDir));
  removeFileTables(stateDir, null);
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
