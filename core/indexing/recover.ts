// Bringing a store back to what its manifest commits: rows a killed pass wrote after the
// manifest's checkpoint are rolled back (by the next pass, or by a host on open).
import type { Logger } from "../engine-types.js";
import type { VectorStore } from "../types.js";
import { acquireIndexLock } from "./lock.js";
import { readManifest, readManifestHeader, writeManifest, type Manifest } from "./manifest.js";
import { oneLine } from "../error-line.js";

/**
 * Makes the store match a manifest written by an earlier pass: rolls back rows a killed pass
 * wrote after the manifest's checkpoint. Returns a rebuild reason when that is impossible.
 */
export async function reconcileStore(store: VectorStore, m: Manifest, current: number, logger: Logger): Promise<string | null> {
  if (current > m.storeCheckpoint) {
    try {
      await store.rollbackTo(m.storeCheckpoint);
      logger.info("rolled back rows of an interrupted pass", { from: current, to: m.storeCheckpoint });
    } catch (err) {
      logger.error("cannot roll back the store", { error: oneLine(err) });
      return "the store holds rows of an interrupted pass that cannot be rolled back";
    }
  }
  const rows = await store.count();
  if (rows !== m.chunkCount) return `the store does not match the manifest (${rows} rows, ${m.chunkCount} expected)`;
  return null;
}

/**
 * Brings a store left ahead of its manifest by a killed pass back to the manifest's
 * checkpoint, when no live pass holds the lock. Hosts call this on open so readers never see
 * half a pass. Returns true when it rolled back.
 */
export async function recoverInterruptedPass(stateDir: string, store: VectorStore, logger: Logger): Promise<boolean> {
  // The header says whether there is anything to do; the file table is read only then.
  const head = readManifestHeader(stateDir);
  if (head.status !== "ok") return false;
  // Nearly every open finds the store at its checkpoint: then it takes no lock, which a pass
  // starting meanwhile would have to wait for.
  if (await storeAtCheckpoint(store, head.header.storeCheckpoint)) return false;
  let lock;
  try {
    lock = acquireIndexLock(stateDir);
  } catch {
    return false; // a live pass owns the store; it reconciles itself
  }
  try {
    const current = await store.checkpoint();
    if (current <= head.header.storeCheckpoint) return false;
    const read = readManifest(stateDir);
    if (read.status !== "ok") return false;
    await store.rollbackTo(read.manifest.storeCheckpoint);
    // The rollback is a new version with the old content: record it so this is not repeated.
    const m = read.manifest;
    m.storeCheckpoint = await store.checkpoint();
    // No entry changed: the header alone names the new checkpoint (the one-document form is written whole).
    writeManifest(stateDir, m, read.table ? { edits: { base: read.table, paths: new Set() } } : {});
    logger.info("rolled back rows of an interrupted pass", { from: current });
    return true;
  } catch (err) {
    logger.error("cannot roll back rows of an interrupted pass", { error: oneLine(err) });
    return false;
  } finally {
    lock.release();
  }
}

/** Whether the store is at (or behind) the manifest's checkpoint; false when that cannot be read (the locked path reports it). */
async function storeAtCheckpoint(store: VectorStore, checkpoint: number): Promise<boolean> {
  try {
    return (await store.checkpoint()) <= checkpoint;
  } catch {
    return false;
  }
}
