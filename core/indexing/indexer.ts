// One incremental index pass, as explicit steps. See README.md in this folder for the steps
// and the commit protocol; in short: nothing the manifest names is touched until new data is
// durable, and the manifest is replaced atomically last.
//
//   start (pass-start.ts)   provider, store, manifest: continue the index or rebuild it
//   plan (pass-plan.ts)     walk (stat only) and diff against the manifest
//   read + chunk            pass-prepare.ts, in worker threads (chunk-pool.ts) when worth it
//   records                 pass-records.ts: chunks -> rows to add and remove
//   embed                   pass-embed.ts: enrichers, then the cache and the model
//   write                   pass-write.ts, one store write in flight (write-queue.ts)
//   commit                  pass-commit.ts: keyword files, manifest last
import type { IndexOptions, IndexSummary } from "../engine-types.js";
import { EmbeddingCache } from "./embedding-cache.js";
import { acquireIndexLock } from "./lock.js";
import { commitPass } from "./pass-commit.js";
import { enrichRecords, embedRecords } from "./pass-embed.js";
import { PassTooBigError, type PassEnv } from "./pass-env.js";
import { PassKeywords } from "./pass-keywords.js";
import { isExistingFolder, planPass } from "./pass-plan.js";
import { prepareBatches, prepareInBatches } from "./pass-prepare.js";
import type { FileToPrepare } from "./prepare-file.js";
import { PassProgress } from "./pass-progress.js";
import { batchChanges } from "./pass-records.js";
import { startPass } from "./pass-start.js";
import { checkAbort, emptySummary, type PassState } from "./pass-state.js";
import { removeDeletedFiles, writeBatch } from "./pass-write.js";
import { tuneOwnProcessForPasses } from "../own-process.js";
import { oneLine } from "../error-line.js";
import type { SharedPass } from "./shared-index.js";
import { writeSkippedList } from "./skipped-files.js";
import { clearProgress } from "./state-files.js";
import { WriteQueue } from "./write-queue.js";

export { IndexCancelledError, localTableDir, type PassEnv } from "./pass-env.js";
export { KEYWORD_FILE_PREFIX, keywordFilesOf, loadKeywordSnapshot } from "./keyword-files.js";
export { recoverInterruptedPass } from "./recover.js";
export { ignoreRulesFor, internalExcludes } from "./workspace-rules.js";

/**
 * Embedding cache vectors kept in memory between passes of one process (the next watched edit
 * then looks them up without reading the file): up to 64 MB, 64k vectors of 256 dimensions.
 * A bigger cache is let go before the commit and read again by the next pass that embeds.
 */
const CACHE_KEEP_BYTES = 64 * 1024 * 1024;

/** Runs one pass under the store's lock. Throws IndexBusyError when another pass holds it. */
export async function runIndexPass(env: PassEnv, options: IndexOptions = {}): Promise<IndexSummary> {
  // Taking the lock creates the state folder: never inside a workspace that was deleted.
  if (!isExistingFolder(env.root)) throw new Error(`the workspace folder ${env.root} does not exist; nothing to index (check the path)`);
  const lock = acquireIndexLock(env.stateDir);
  tuneOwnProcessForPasses();
  let shared: SharedPass | null = null;
  try {
    if (env.shared) {
      // The bucket's lock, then its manifest, keyword files and embedding caches in the mirror.
      shared = await env.shared.beginPass();
      // Another machine may have committed since this process last looked: re-read everything.
      env.embeddingCache = null;
    }
    const summary = await runLocked(env, options);
    try {
      await shared?.commit();
    } catch (err) {
      // The keyword index in memory is this pass's, which the bucket does not have.
      env.keyword = null;
      env.keywordGeneration = -1;
      throw err;
    }
    return summary;
  } finally {
    clearProgress(env.stateDir);
    await shared?.release().catch((err) => env.logger.error("releasing the shared index's lock failed; it expires on its own", { error: oneLine(err) }));
    lock.release();
  }
}

async function runLocked(env: PassEnv, options: IndexOptions): Promise<IndexSummary> {
  const progress = new PassProgress(env.stateDir, options.onProgress);
  progress.report(true);
  const start = await startPass(env, options);
  progress.mark("open");
  const { read, rebuildReason } = start;
  const pass: PassState = {
    ...start,
    env,
    config: env.config,
    options,
    summary: { ...emptySummary(), rebuildReason },
    progress,
    // A rebuild over a committed index fills a new keyword index: searches keep the committed
    // one (and the store's committed version) until this pass commits.
    keywords: new PassKeywords(env, read.status === "ok" ? read.manifest : null, start.keyword, !(rebuildReason && read.status === "ok")),
    writes: new WriteQueue(start.store),
    skippedFiles: new Map(),
    examined: null,
    touchedEntries: 0,
    editedPaths: new Set(),
  };
  progress.mark("reconcile");
  try {
    await runSteps(pass);
  } catch (err) {
    // Leave the store exactly as the manifest describes it; the next pass starts clean.
    pass.keywords.discard();
    try {
      await pass.store.rollbackTo(pass.startCheckpoint);
    } catch (rollbackErr) {
      env.logger.error("rollback after a failed pass failed; the next pass will reconcile", { error: oneLine(rollbackErr) });
    }
    throw err;
  }
  const { summary } = pass;
  writeSkippedList(env.stateDir, pass.skippedFiles, pass.examined);
  summary.durationMs = Date.now() - progress.started;
  progress.phase("done", true);
  env.logger.info("index pass finished", { ...summary, errors: summary.errors.length, warnings: summary.warnings.length });
  env.logger.debug("index pass timings (ms)", progress.timings);
  return summary;
}

/**
 * A pass asked to stay small throws before its first change (the failure path rolls back the
 * rest): when its changed files hold more than the limit, or when its commit would rewrite the
 * table (compaction, every few dozen small passes), whose memory the process would keep.
 */
async function stopIfTooBig(pass: PassState, changed: FileToPrepare[], deleted: string[]): Promise<void> {
  const limit = pass.options.apartAboveBytes;
  if (limit === undefined) return;
  let bytes = 0;
  for (const f of changed) bytes += f.size;
  if (bytes > limit) throw new PassTooBigError(bytes, changed.length, "changed files");
  if (changed.length + deleted.length > 0 && (await pass.store.rewriteDue?.(prepareBatches(changed).length))) throw new PassTooBigError(bytes, changed.length, "table rewrite");
}

async function runSteps(pass: PassState): Promise<void> {
  const { env, progress } = pass;
  const { changed, deleted } = await planPass(pass);
  checkAbort(pass);
  await stopIfTooBig(pass, changed, deleted);
  progress.state.filesTotal = changed.length + deleted.length;
  progress.phase("chunking", true);
  await removeDeletedFiles(pass, deleted);

  const { provider, dimension } = pass;
  // No cache for a model cheap to recompute: its vectors are re-used from the table (embedding-cache.ts).
  const cache = provider && dimension && !provider.cheapToRecompute ? EmbeddingCache.reuseOrOpen(env.embeddingCache, env.stateDir, pass.providerName, pass.modelName, dimension) : null;
  env.embeddingCache = cache;
  try {
    await prepareInBatches(pass, changed, async (prepared) => {
      const changes = batchChanges(pass, prepared);
      progress.mark("batch:records");
      await enrichRecords(pass, changes);
      const vectors = await embedRecords(pass, changes, cache);
      progress.mark("batch:enrich+embed");
      await writeBatch(pass, changes, vectors);
    });
    await pass.writes.settle();
    progress.mark("batch:store");
  } finally {
    // after a failure, no write may still be running when the pass rolls the store back
    await pass.writes.drain();
    cache?.releaseAbove(CACHE_KEEP_BYTES);
  }

  progress.phase("writing", true);
  await commitPass(pass, cache);
  progress.mark("commit");
}
