// The keyword index on disk: a snapshot per commit (`keyword-<generation>.bin`) plus small
// delta files for small passes, all named by the manifest. See README.md in this folder.
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { FOOTER_BYTES, FORMAT_HEAD_BYTES, isReadableFormat, postingsPart } from "../keyword/keyword-format.js";
import { KeywordIndex, type KeywordDoc } from "../keyword/keyword-index.js";
import { keywordFileBuffer } from "../keyword/vector-codes.js";
import { readFileInto, readFileIntoLeavingPart } from "../files/read-into.js";
import type { EnsureBytes } from "../keyword/postings.js";
import { removeQuietly } from "./atomic-file.js";
import type { Manifest } from "./manifest.js";

/** What of a manifest names the keyword files (its header has it). */
type KeywordFields = Pick<Manifest, "keywordFile" | "keywordDeltas" | "chunkCount">;

export const KEYWORD_FILE_PREFIX = "keyword-";

/** Keyword changes of one small pass, stored beside the snapshot instead of a new snapshot. */
export interface KeywordDelta {
  remove: string[];
  add: KeywordDoc[];
}

/** A pass whose keyword changes are at most this big writes a delta file, not a snapshot... */
export const KEYWORD_DELTA_MAX_OPS = 2000;
/**
 * ...until this many deltas have piled up; then the next pass folds them into a snapshot. At
 * 100k files a fold writes 42 MB and takes ~1.4 s of CPU (2.5-4.5 s a pass in all), the most a
 * watcher's save costs there once amortized; a process that opens the index replays the
 * deltas, mostly a fixed cost of the first (one-file deltas, 100k files: none 70-73 ms, 16
 * 134-139 ms, 32 133-155 ms; a one-off query 16 → 32: +~20 ms). 16 folded twice as often.
 */
export const KEYWORD_DELTA_MAX_FILES = 32;
/**
 * ...and while the deltas a process must replay stay this small in all. Every process that
 * opens the index parses them and tokenizes their chunks again (~55 ms a megabyte): one large
 * source file re-chunked (1,739 chunks of a 3.4 MB file, a 13.6 MB delta with its vectors)
 * took a one-off query from 0.45 to 1.2 s.
 */
export const KEYWORD_DELTA_MAX_BYTES = 2 * 1024 * 1024;

/** Loads the keyword snapshot a manifest names, plus its deltas; null when any is missing or unreadable. */
export function loadKeywordSnapshot(stateDir: string, manifest: KeywordFields): KeywordIndex | null {
  if (!manifest.keywordFile) return manifest.chunkCount === 0 ? new KeywordIndex() : null;
  try {
    const snapshot = readWholeSync(join(stateDir, manifest.keywordFile));
    return withDeltas(snapshot, (manifest.keywordDeltas ?? []).map((file) => readFileSync(join(stateDir, file), "utf8")));
  } catch {
    return null;
  }
}

/**
 * loadKeywordSnapshot() with the files read off this thread: a searching process opens its
 * store and loads its model meanwhile. The snapshot's postings (two fifths of it) are left to be
 * read behind the rest, and the few a search needs before that are read as it asks for them
 * (keyword-format.ts postingsPart): the index is ready sooner, and a one-off query reads only those.
 */
export async function readKeywordSnapshot(stateDir: string, manifest: KeywordFields): Promise<KeywordIndex | null> {
  if (!manifest.keywordFile) return manifest.chunkCount === 0 ? new KeywordIndex() : null;
  try {
    const snapshot = await readFileIntoLeavingPart(join(stateDir, manifest.keywordFile), keywordFileBuffer, FORMAT_HEAD_BYTES, FOOTER_BYTES, postingsPart);
    const deltas = await Promise.all((manifest.keywordDeltas ?? []).map((file) => readFile(join(stateDir, file), "utf8")));
    return withDeltas(snapshot.bytes, deltas, snapshot.ensure);
  } catch {
    return null;
  }
}

function withDeltas(snapshot: Uint8Array, deltaTexts: string[], ensure?: EnsureBytes): KeywordIndex {
  const index = KeywordIndex.deserialize(snapshot, ensure);
  index.replay(deltaTexts.map((text) => JSON.parse(text) as KeywordDelta));
  return index;
}

/**
 * A snapshot's bytes, read into memory the vector search scans in place (keywordFileBuffer):
 * no copy of the file, and none of its codes.
 */
function readWholeSync(path: string): Uint8Array {
  return readFileInto(path, keywordFileBuffer);
}

/**
 * Whether the keyword files a manifest names are all there, not empty, and the snapshot is of
 * the format this version reads (an upgrade that changed it rebuilds); not whether they parse.
 */
export function keywordFilesUsable(stateDir: string, manifest: KeywordFields): boolean {
  if (!manifest.keywordFile) return manifest.chunkCount === 0;
  if (!isReadableFormat(fileHead(join(stateDir, manifest.keywordFile), FORMAT_HEAD_BYTES))) return false;
  return (manifest.keywordDeltas ?? []).every((f) => {
    try {
      return statSync(join(stateDir, f)).size > 0;
    } catch {
      return false;
    }
  });
}

function fileHead(path: string, length: number): Uint8Array {
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const head = new Uint8Array(length);
    return head.subarray(0, readSync(fd, head, 0, length, 0));
  } catch {
    return new Uint8Array(0);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The keyword files a manifest names (snapshot and deltas). */
export function keywordFilesOf(manifest: KeywordFields): string[] {
  return [...(manifest.keywordFile ? [manifest.keywordFile] : []), ...(manifest.keywordDeltas ?? [])];
}

/** Keyword files no manifest names: left by a pass killed before its commit. */
export function removeOrphanSnapshots(stateDir: string, keep: Set<string>): void {
  let names: string[];
  try {
    names = readdirSync(stateDir);
  } catch {
    return;
  }
  for (const n of names) {
    if (n.startsWith(KEYWORD_FILE_PREFIX) && !keep.has(n) && !n.endsWith(".tmp")) removeQuietly(join(stateDir, n));
  }
}
