// Step 4b of a pass: a batch of prepared files becomes the rows to add, the rows to remove
// and the manifest entries to write. A chunk already stored under the same id is identical
// and keeps its row.
import type { ChunkRecord } from "../types.js";
import { embeddingText } from "../chunking/index.js";
import { chunkId, hashBytes } from "./hash.js";
import type { ManifestFileEntry } from "./manifest.js";
import { editEntry, type PassState } from "./pass-state.js";
import type { PreparedFile } from "./prepare-file.js";

export interface BatchChanges {
  removeIds: string[];
  addRecords: ChunkRecord[];
  /** The text each added record is embedded and keyword-indexed with. */
  addTexts: string[];
  touched: Array<{ path: string; entry: ManifestFileEntry }>;
}

export function batchChanges(pass: PassState, prepared: PreparedFile[]): BatchChanges {
  const { manifest, summary, progress, skippedFiles, env } = pass;
  const changes: BatchChanges = { removeIds: [], addRecords: [], addTexts: [], touched: [] };
  const { removeIds, addRecords, addTexts, touched } = changes;
  for (const p of prepared) {
    const old = manifest.files[p.path];
    if (p.kind === "error") {
      if (p.error === "deleted while indexing") {
        if (old) {
          removeIds.push(...old.chunkIds);
          editEntry(pass, p.path, null);
          summary.filesDeleted++;
        }
      } else {
        summary.errors.push({ filePath: p.path, error: p.error });
        skippedFiles.set(p.path, p.error);
        // Keep the old chunks, but make the next pass try this file again.
        if (old) {
          old.mtimeMs = -1;
          pass.touchedEntries++;
          pass.editedPaths.add(p.path);
        }
      }
      continue;
    }
    summary.bytesRead += p.bytes;
    progress.state.bytesDone += p.bytes;
    if (p.kind === "same-content") {
      // Field by field: an entry read from the manifest's file table keeps its hash and ids in
      // accessors, which a spread would not copy.
      const { hash, chunkIds, skipped } = old!;
      touched.push({ path: p.path, entry: { size: p.size, mtimeMs: p.mtimeMs, hash, chunkIds, ...(skipped !== undefined ? { skipped } : {}) } });
      summary.filesUnchanged++;
      continue;
    }
    if (p.kind === "skipped") {
      if (old) removeIds.push(...old.chunkIds);
      touched.push({ path: p.path, entry: { size: p.size, mtimeMs: p.mtimeMs, hash: p.hash, chunkIds: [], skipped: p.reason } });
      summary.filesSkipped++;
      skippedFiles.set(p.path, p.reason);
      continue;
    }
    for (const warning of p.warnings ?? []) {
      summary.warnings.push({ filePath: p.path, warning });
      env.logger.info("file indexed as line windows", { filePath: p.path, reason: warning });
    }
    const oldIds = new Set(old?.chunkIds ?? []);
    const newIds: string[] = [];
    const seen = new Set<string>();
    for (const c of p.chunks) {
      const text = embeddingText(c);
      const contentHash = hashBytes(text);
      const id = chunkId(p.path, c.startLine, c.endLine, contentHash);
      if (seen.has(id)) continue;
      seen.add(id);
      newIds.push(id);
      // A chunk already stored under the same id is identical: keep its row as is.
      if (oldIds.has(id)) continue;
      addRecords.push({ ...c, filePath: p.path, id, contentHash, description: "" });
      addTexts.push(text);
    }
    for (const id of oldIds) if (!seen.has(id)) removeIds.push(id);
    touched.push({ path: p.path, entry: { size: p.size, mtimeMs: p.mtimeMs, hash: p.hash, chunkIds: newIds } });
    summary.filesIndexed++;
  }
  return changes;
}
