// Step 7 of a pass, the commit: store durable -> keyword files -> manifest (atomic, last) ->
// files the old manifest named removed. Until the manifest is written, readers and the next
// pass see the previous index.
import { removeEmbeddingCacheFile, type EmbeddingCache } from "./embedding-cache.js";
import { countFiles, writeManifestInSlices, type WriteManifestOptions } from "./manifest.js";
import { passSliceMs } from "./pass-env.js";
import type { PassState } from "./pass-state.js";
import { sameFiles, tableFiles } from "./store-files.js";

export async function commitPass(pass: PassState, cache: EmbeddingCache | null): Promise<void> {
  const { manifest, store, read, progress, summary } = pass;
  const changedAnything =
    pass.rebuildReason !== null || read.status !== "ok" || pass.keywords.removed.length > 0 || summary.chunksAdded > 0 || summary.filesDeleted > 0;
  // A shared index's mirror keeps the one-document form the bucket holds (shared-index.ts).
  const inline = pass.env.shared !== null && pass.env.shared !== undefined;
  // The table this pass read stays on disk and takes its edits as a delta (a rebuild's, or an
  // older form's, is written whole).
  const continued = read.status === "ok" && read.table !== undefined && read.manifest === manifest;
  const form: WriteManifestOptions = { inline, ...(continued && !inline ? { edits: { base: read.table!, paths: pass.editedPaths } } : {}) };
  manifest.lastIndexedAt = new Date().toISOString();
  if (changedAnything) {
    // A background ANN build writes a table version; let it land before the checkpoint.
    await store.waitForAnnBuild?.();
    const storeRows = await store.count();
    // The counts the pass kept from the header (at 100k files counting takes ~35 ms); should
    // they disagree with the store, the entries themselves are counted before anything fails.
    let counts = pass.counts ?? countFiles(manifest.files);
    if (storeRows !== counts.chunks && pass.counts) counts = countFiles(manifest.files);
    const chunkCount = counts.chunks;
    if (storeRows !== chunkCount) {
      throw new Error(`the store holds ${storeRows} rows but the pass expected ${chunkCount}; run \`opencode-rag index --force\``);
    }
    manifest.generation += 1;
    progress.mark("commit:store-count");
    await pass.keywords.write(manifest, !pass.rebuildReason && read.status === "ok");
    progress.mark("commit:keyword");
    manifest.chunkCount = chunkCount;
    // Small fragments left by this pass's writes slow every search: compact them, keeping
    // the versions this pass may still roll back to: its start (a failure) and the one the
    // old manifest names (a crash before the new manifest is written).
    // A workspace's first index has no committed version to keep: a failure or a crash
    // before its manifest is written leaves rows without a manifest, which the next pass
    // clears anyway. So every version but the compacted one goes now; otherwise the write
    // batches' fragments stayed on disk beside their compacted copy (3x the table's data).
    const firstIndex = read.status !== "ok";
    const oldManifestCheckpoint = read.status === "ok" ? read.manifest.storeCheckpoint : pass.startCheckpoint;
    if (firstIndex && store.dropOldVersions) await store.dropOldVersions();
    else await store.compact?.(Math.min(pass.startCheckpoint, oldManifestCheckpoint));
    progress.mark("commit:compact");
    manifest.storeCheckpoint = await store.checkpoint();
    recordStoreFiles(pass);
    pass.env.writtenFiles = await writeManifestInSlices(pass.env.stateDir, manifest, { ...form, counts }, passSliceMs(pass.env));
    pass.keywords.removeOldFiles(manifest);
    // Listing every row is costly on a big store: only when dead cache entries may dominate.
    if (cache && cache.sizeOnDisk >= 1000 && cache.sizeOnDisk >= 2 * chunkCount) {
      const live = new Set<string>();
      // Only content hashes are known here without reading rows; descriptions' keys age out on rebuild.
      for (const r of await store.listAll()) live.add(r.contentHash);
      cache.compact(live);
    }
  } else {
    // Nothing was added or removed; the manifest is rewritten only when some entry changed
    // (a touched file's new mtime) or the store moved (a rollback makes a new version), or to
    // move an index from the one-document form to the faster header and file table.
    const checkpoint = await store.checkpoint();
    const filesMoved = recordStoreFiles(pass);
    const olderForm = read.status === "ok" && read.inline === true && !inline;
    if (pass.touchedEntries > 0 || checkpoint !== manifest.storeCheckpoint || filesMoved || olderForm) {
      manifest.storeCheckpoint = checkpoint;
      pass.env.writtenFiles = await writeManifestInSlices(pass.env.stateDir, manifest, { ...form, ...(pass.counts ? { counts: pass.counts } : {}) }, passSliceMs(pass.env));
    } else if (continued) {
      // Nothing to write: the table on disk is still the one this pass read (or took).
      pass.env.writtenFiles = { ...read.table!, files: manifest.files };
    }
  }
  // One copy of every vector on disk: a cache file an older version kept for this model goes.
  if (pass.provider?.cheapToRecompute && pass.dimension) removeEmbeddingCacheFile(pass.env.stateDir, pass.providerName, pass.modelName, pass.dimension);
  // A pass that changed nothing may not have read the keyword index: searches read it then.
  pass.keywords.publish(manifest.generation);
}

/** Notes the table's files in the manifest; true when they differ from what it said. */
function recordStoreFiles(pass: PassState): boolean {
  const files = pass.tableDir ? tableFiles(pass.tableDir) : null;
  if (sameFiles(pass.manifest.storeFiles, files)) return false;
  if (files) pass.manifest.storeFiles = files;
  else delete pass.manifest.storeFiles;
  return true;
}
