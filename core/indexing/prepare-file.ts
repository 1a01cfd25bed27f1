// Reads one changed file, hashes it and turns it into chunks. Runs in the main thread or in a
// chunking worker: the same function, so both produce identical results.
import type { Chunk } from "../types.js";
import { readRegularFile, readRegularFileSync, UnreadableFileError } from "../files/safe-read.js";
import { looksLikeSecretContent, SECRET_REASON, secretFileRules } from "../files/secret-files.js";
import { redactChunk } from "../redact.js";
import { hashBytes } from "./hash.js";
import { handlerFor, type FileHandlerContext } from "./handlers.js";
import { oneLine } from "../error-line.js";
import { sizeLimitFor } from "../files/size-limits.js";
import { fileSizeLimits } from "./workspace-rules.js";

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

export interface PrepareOptions {
  /** Handlers registered by the host (main thread only: a worker has none). Default true. */
  registeredHandlers?: boolean;
  /** Read with blocking calls: only on a thread of its own (a chunking worker). Default false. */
  blockingReads?: boolean;
}

export async function prepareFile(file: FileToPrepare, ctx: FileHandlerContext, options: PrepareOptions = {}): Promise<PreparedFile> {
  let bytes: Uint8Array;
  try {
    // The walker saw a regular file, but it may have become a FIFO or grown since.
    const readOptions = { maxBytes: sizeLimitFor(file.path, fileSizeLimits(ctx.config.indexing)).bytes };
    bytes = options.blockingReads ? readRegularFileSync(file.absPath, readOptions) : await readRegularFile(file.absPath, readOptions);
  } catch (err) {
    if (err instanceof UnreadableFileError) return { path: file.path, kind: "error", error: `cannot read: ${err.message.slice(file.absPath.length + 1)}` };
    const code = (err as NodeJS.ErrnoException).code;
    return { path: file.path, kind: "error", error: code === "ENOENT" ? "deleted while indexing" : `cannot read: ${code ?? (err as Error).message}` };
  }
  const hash = hashBytes(bytes);
  // The mtime is the walker's, taken before the read: a write after it moves the mtime, so
  // the next pass looks again instead of trusting stale content.
  const base = { path: file.path, hash, bytes: bytes.length, size: file.size, mtimeMs: file.mtimeMs };
  if (file.previousHash === hash) return { ...base, kind: "same-content" };
  if (isSecretContent(file.path, bytes, ctx)) return { ...base, kind: "skipped", reason: SECRET_REASON };
  try {
    const result = await handlerFor(file.path, options.registeredHandlers ?? true).handle(file.path, bytes, ctx);
    if ("skipped" in result) return { ...base, kind: "skipped", reason: result.skipped };
    // Secrets inside ordinary files never reach the store, the embedder or a describer.
    return { ...base, kind: "chunks", chunks: result.chunks.map(redactChunk), ...(result.warnings?.length ? { warnings: result.warnings } : {}) };
  } catch (err) {
    return { path: file.path, kind: "error", error: `cannot chunk: ${oneLine(err)}` };
  }
}

/** A key file whose name says nothing (a service-account JSON, a bare private key). */
function isSecretContent(path: string, bytes: Uint8Array, ctx: FileHandlerContext): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 64 * 1024)).toString("latin1");
  if (!head.includes("PRIVATE KEY") && !head.includes("service_account")) return false;
  return !secretFileRules(ctx.config.indexing).isAllowed(path) && looksLikeSecretContent(head);
}
