// Reads one changed file, hashes it and turns it into chunks. Runs in the main thread or in a
// chunking worker: the same function, so both produce identical results.
import { readFile } from "node:fs/promises";
import type { Chunk } from "../types.js";
import { hashBytes } from "./hash.js";
import { handlerFor, type FileHandlerContext } from "./handlers.js";
import { oneLine } from "../error-line.js";

export interface FileToPrepare {
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
  /** Hash in the manifest: when the content still matches, chunking is skipped. */
  previousHash?: string;
}

export type PreparedFile =
  /** `warnings`: the file is indexed, but not as its format asked (line windows after its chunker failed). */
  | { path: string; kind: "chunks"; hash: string; bytes: number; size: number; mtimeMs: number; chunks: Chunk[]; warnings?: string[] }
  /** Content identical to the manifest's (only the mtime moved): nothing to re-chunk. */
  | { path: string; kind: "same-content"; hash: string; bytes: number; size: number; mtimeMs: number }
  | { path: string; kind: "skipped"; hash: string; bytes: number; size: number; mtimeMs: number; reason: string }
  | { path: string; kind: "error"; error: string };

export async function prepareFile(
  file: FileToPrepare,
  ctx: FileHandlerContext,
  includeRegisteredHandlers = true,
): Promise<PreparedFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file.absPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { path: file.path, kind: "error", error: code === "ENOENT" ? "deleted while indexing" : `cannot read: ${code ?? (err as Error).message}` };
  }
  const hash = hashBytes(bytes);
  // The mtime is the walker's, taken before the read: a write after it moves the mtime, so
  // the next pass looks again instead of trusting stale content.
  const base = { path: file.path, hash, bytes: bytes.length, size: file.size, mtimeMs: file.mtimeMs };
  if (file.previousHash === hash) return { ...base, kind: "same-content" };
  try {
    const result = await handlerFor(file.path, includeRegisteredHandlers).handle(file.path, bytes, ctx);
    if ("skipped" in result) return { ...base, kind: "skipped", reason: result.skipped };
    return { ...base, kind: "chunks", chunks: result.chunks, ...(result.warnings?.length ? { warnings: result.warnings } : {}) };
  } catch (err) {
    return { path: file.path, kind: "error", error: `cannot chunk: ${oneLine(err)}` };
  }
}

export { oneLine };
