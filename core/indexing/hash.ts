// Content hashes and chunk ids. sha1 is plenty for change detection (not a security boundary)
// and runs near memory speed, which keeps hashing far below chunking in a pass's cost.
import { createHash } from "node:crypto";

export function hashBytes(data: Uint8Array | string): string {
  return createHash("sha1").update(data).digest("hex");
}

/** Stable chunk id: the same chunk text at the same place in the same file keeps its id. */
export function chunkId(filePath: string, startLine: number, endLine: number, contentHash: string): string {
  return createHash("sha1").update(`${filePath}\0${startLine}\0${endLine}\0${contentHash}`).digest("hex").slice(0, 32);
}
