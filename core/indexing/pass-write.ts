// Step 6 of a pass: old rows out, new rows in; the keyword index and the manifest's entries
// follow the store. Nothing here is committed until pass-commit.ts writes the manifest.
import { keywordDocOf } from "../keyword/keyword-doc.js";
import type { BatchChanges } from "./pass-records.js";
import { editEntry, type PassState } from "./pass-state.js";

/** Rows of files that are gone from the workspace. */
export async function removeDeletedFiles(pass: PassState, deleted: string[]): Promise<void> {
  if (deleted.length === 0) return;
  const { manifest, summary, progress } = pass;
  const ids: string[] = [];
  for (const p of deleted) {
    ids.push(...manifest.files[p].chunkIds);
    editEntry(pass, p, null);
  }
  await pass.store.deleteByIds(ids);
  pass.keywords.remove(ids);
  summary.filesDeleted = deleted.length;
  summary.chunksRemoved += ids.length;
  progress.state.filesDone += deleted.length;
  progress.report();
}

export async function writeBatch(pass: PassState, changes: BatchChanges, vectors: Array<Float32Array | null>): Promise<void> {
  const { writes, progress, summary } = pass;
  const { removeIds, addRecords, addTexts, touched } = changes;
  progress.state.phase = "writing";
  // The store writes in its own threads while the next batch is embedded (write-queue.ts).
  await writes.write(removeIds, addRecords.map((r, i) => ({ ...r, vector: vectors[i] })));
  progress.mark("batch:store");
  pass.keywords.remove(removeIds);
  pass.keywords.add(addRecords.map((r, i) => keywordDocOf(r, addTexts[i], vectors[i])));
  progress.mark("batch:keyword");
  for (const t of touched) editEntry(pass, t.path, t.entry);
  pass.touchedEntries += touched.length;
  summary.chunksAdded += addRecords.length;
  summary.chunksRemoved += removeIds.length;
  if (!pass.provider) progress.state.chunksDone += addRecords.length;
  progress.report();
}
