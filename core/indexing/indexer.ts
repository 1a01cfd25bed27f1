// One incremental index pass. See README.md in this folder for the steps and the commit
// protocol; in short: nothing the manifest names is touched until new data is durable, and
// the manifest is replaced atomically last.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { RagConfig } from "../config/defaults.js";
import { isRemoteOrMemoryUri } from "../config/load.js";
import type { IndexOptions, IndexProgress, IndexSummary, Logger } from "../engine-types.js";
import type { ChunkRecord, EmbeddingProvider, VectorStore } from "../types.js";
import { embeddingText } from "../chunking/index.js";
import { KeywordIndex, type KeywordDoc } from "../keyword/keyword-index.js";
import { IgnoreRules, isIgnoreFile } from "../files/ignore-rules.js";
import { statPaths, toPosix, walkWorkspace, type WalkedFile } from "../files/walk.js";
import { removeQuietly, writeFileAtomic } from "./atomic-file.js";
import { ChunkPool, POOL_MIN_BYTES } from "./chunk-pool.js";
import type { CpuBudget } from "./cpu-share.js";
import { EmbeddingCache } from "./embedding-cache.js";
import { chunkingChangeReason, chunkingFingerprint } from "./fingerprint.js";
import { chunkEnrichers, workerCanHandle, type FileHandlerContext } from "./handlers.js";
import { chunkId, hashBytes } from "./hash.js";
import { writeSkippedList } from "./skipped-files.js";
import { sameFiles, storeDamage, tableFiles } from "./store-files.js";
import { acquireIndexLock } from "./lock.js";
import { emptyManifest, readManifest, writeManifest, type Manifest, type ManifestFileEntry } from "./manifest.js";
import { prepareFile, oneLine, type FileToPrepare, type PreparedFile } from "./prepare-file.js";
import { clearProgress, writeProgress } from "./state-files.js";
import type { SharedIndex, SharedPass } from "./shared-index.js";

/** What a pass needs from its host (the Engine): resources it opens once and reuses. */
export interface PassEnv {
  root: string;
  config: RagConfig;
  stateDir: string;
  storeUri: string;
  logger: Logger;
  embedding(): Promise<{ provider: EmbeddingProvider | null; reason: string | null }>;
  /** The store for this dimension, opened (or re-created for a new dimension) as needed. */
  store(dimension: number | null): Promise<VectorStore>;
  /** The in-memory keyword index matching the current manifest, if loaded. */
  keyword: KeywordIndex | null;
  /** The generation `keyword` was loaded at. */
  keywordGeneration: number;
  /** The embedding cache the last pass used, kept for the next pass of this process. */
  embeddingCache?: EmbeddingCache | null;
  /** Why the store is known to be damaged (a failed read during search), or null. */
  storeDamage?: string | null;
  /** Moves a damaged local table aside and opens a fresh, empty one; null where it cannot. */
  resetStore?(dimension: number | null): Promise<VectorStore | null>;
  /** A background pass's share of the cores; null or absent: a foreground pass, every core. */
  cpu?: CpuBudget | null;
  /** A team-shared index on object storage: the bucket's lock, and its state files mirrored in stateDir. */
  shared?: SharedIndex | null;
}

/** The local table folder of a pass's store, or null for object storage and memory://. */
export function localTableDir(env: Pick<PassEnv, "storeUri" | "config">): string | null {
  if (isRemoteOrMemoryUri(env.storeUri)) return null;
  return join(env.storeUri, `${env.config.vectorStore.tableName}.lance`);
}

export class IndexCancelledError extends Error {
  constructor() {
    super("indexing cancelled");
    this.name = "IndexCancelledError";
  }
}

export const KEYWORD_FILE_PREFIX = "keyword-";

/**
 * Files prepared and written together; bounds memory (2 MB batches kept peak RSS under
 * 500 MB on the 9k-file bench, 4 MB did not) and gives progress its rhythm.
 */
const BATCH_MAX_FILES = 100;
const BATCH_MAX_BYTES = 2 * 1024 * 1024;
const PROGRESS_FILE_EVERY_MS = 250;
/**
 * Embedding cache vectors kept in memory between passes of one process (the next watched edit
 * then looks them up without reading the file): up to 64 MB, 64k vectors of 256 dimensions.
 * A bigger cache is let go before the commit and read again by the next pass that embeds.
 */
const CACHE_KEEP_BYTES = 64 * 1024 * 1024;
/** Batches chunking workers may run ahead of the writer: keeps them busy, bounds memory. */
const PREFETCH_BATCHES = 2;

/** Workspace-relative paths the walker and watcher must never look at: the store, the state folder, the log. */
export function internalExcludes(root: string, stateDir: string, storeUri: string, logFile = ""): string[] {
  const out: string[] = [];
  for (const abs of [stateDir, storeUri, logFile ? resolve(root, logFile) : ""]) {
    if (!abs) continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(abs)) continue;
    const rel = toPosix(relative(root, abs));
    if (rel && !rel.startsWith("..")) out.push(rel);
  }
  return out;
}

export function ignoreRulesFor(env: Pick<PassEnv, "root" | "config" | "stateDir" | "storeUri">): IgnoreRules {
  return new IgnoreRules(
    env.root,
    env.config.indexing,
    internalExcludes(env.root, env.stateDir, env.storeUri, env.config.logging.logFilePath),
  );
}

/** Keyword changes of one small pass, stored beside the snapshot instead of a new snapshot. */
interface KeywordDelta {
  remove: string[];
  add: KeywordDoc[];
}

/** A pass whose keyword changes are at most this big writes a delta file, not a snapshot... */
const KEYWORD_DELTA_MAX_OPS = 2000;
/** ...until this many deltas have piled up; then the next pass folds them into a snapshot. */
const KEYWORD_DELTA_MAX_FILES = 16;

/** Loads the keyword snapshot a manifest names, plus its deltas; null when any is missing or unreadable. */
export function loadKeywordSnapshot(stateDir: string, manifest: Manifest): KeywordIndex | null {
  if (!manifest.keywordFile) return manifest.chunkCount === 0 ? new KeywordIndex() : null;
  try {
    const index = KeywordIndex.deserialize(new Uint8Array(readFileSync(join(stateDir, manifest.keywordFile))));
    for (const file of manifest.keywordDeltas ?? []) {
      const delta = JSON.parse(readFileSync(join(stateDir, file), "utf8")) as KeywordDelta;
      index.removeIds(delta.remove);
      index.add(delta.add);
    }
    return index;
  } catch {
    return null;
  }
}

/** Whether the keyword files a manifest names are all there and not empty (not whether they parse). */
function keywordFilesExist(stateDir: string, manifest: Manifest): boolean {
  if (!manifest.keywordFile) return manifest.chunkCount === 0;
  return keywordFilesOf(manifest).every((f) => {
    try {
      return statSync(join(stateDir, f)).size > 0;
    } catch {
      return false;
    }
  });
}

/** The keyword files a manifest names (snapshot and deltas). */
export function keywordFilesOf(manifest: Manifest): string[] {
  return [...(manifest.keywordFile ? [manifest.keywordFile] : []), ...(manifest.keywordDeltas ?? [])];
}

function keywordDoc(r: ChunkRecord, text: string): KeywordDoc {
  return { id: r.id, text, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol };
}

function emptySummary(): IndexSummary {
  return {
    filesScanned: 0,
    filesIndexed: 0,
    filesUnchanged: 0,
    filesDeleted: 0,
    filesSkipped: 0,
    chunksAdded: 0,
    chunksRemoved: 0,
    chunksEmbedded: 0,
    chunksFromCache: 0,
    bytesRead: 0,
    durationMs: 0,
    rebuildReason: null,
    errors: [],
    warnings: [],
  };
}

interface StoreLike extends VectorStore {
  waitForAnnBuild?(): Promise<void>;
  compact?(keepVersion: number): Promise<void>;
  dropOldVersions?(): Promise<void>;
}

/** At most one store write in flight, started in order; its failure surfaces at the next settle. */
class SerialWrites {
  private inFlight: Promise<void> = Promise.resolve();

  start(write: () => Promise<void>): void {
    this.inFlight = write();
    // seen at settle(); never an unhandled rejection meanwhile
    this.inFlight.catch(() => undefined);
  }

  /** Waits for the write in flight; throws its error. */
  settle(): Promise<void> {
    return this.inFlight;
  }

  /** Waits for the write in flight, ignoring its error (the pass is failing already). */
  async drain(): Promise<void> {
    await this.inFlight.catch(() => undefined);
  }
}

/** Runs one pass under the store's lock. Throws IndexBusyError when another pass holds it. */
export async function runIndexPass(env: PassEnv, options: IndexOptions = {}): Promise<IndexSummary> {
  // Taking the lock creates the state folder: never inside a workspace that was deleted.
  if (!isExistingFolder(env.root)) throw new Error(`the workspace folder ${env.root} does not exist; nothing to index (check the path)`);
  const lock = acquireIndexLock(env.stateDir);
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
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const { config, stateDir, logger } = env;
  const summary = emptySummary();
  // Where a pass spends its time, logged at debug level (the bench and --debug read it).
  const timings: Record<string, number> = {};
  let lastMark = performance.now();
  const mark = (step: string) => {
    const now = performance.now();
    timings[step] = Math.round((timings[step] ?? 0) + now - lastMark);
    lastMark = now;
  };
  const checkAbort = () => {
    if (options.signal?.aborted) throw new IndexCancelledError();
  };

  // Progress: to the caller on every step, to the shared progress file a few times a second.
  const progress: IndexProgress = { phase: "scanning", filesDone: 0, filesTotal: 0, chunksDone: 0, bytesDone: 0, elapsedMs: 0 };
  let lastFileWrite = 0;
  const report = (force = false) => {
    progress.elapsedMs = Date.now() - started;
    try {
      options.onProgress?.({ ...progress });
    } catch {
      // a host's progress display must not break the pass
    }
    if (force || Date.now() - lastFileWrite >= PROGRESS_FILE_EVERY_MS) {
      lastFileWrite = Date.now();
      writeProgress(stateDir, {
        pid: process.pid,
        startedAt,
        updatedAt: new Date().toISOString(),
        phase: progress.phase,
        filesDone: progress.filesDone,
        filesTotal: progress.filesTotal,
        chunksDone: progress.chunksDone,
      });
    }
  };
  report(true);

  // 1. What vectors this pass makes, and what the index on disk was made with.
  const { provider, reason: keywordOnlyReason } = await env.embedding();
  if (!provider && !options.force) {
    // A typo in embedding.model or a missing API key must not silently trade an index's
    // vectors for a keyword-only rebuild: stop, keep the index, say how to proceed.
    const before = readManifest(stateDir);
    if (before.status === "ok" && before.manifest.provider !== "none") {
      throw new Error(
        `no embedding model is available (${keywordOnlyReason ?? "unknown reason"}); the index keeps its ${before.manifest.provider}/${before.manifest.model} vectors: fix embedding.* in the config, or run "opencode-rag index --force" to rebuild it keyword-only`,
      );
    }
  }
  const dimension = provider ? await provider.dimension() : null;
  const providerName = provider ? provider.provider : "none";
  // The weights' fingerprint is part of the identity: a model upgraded under the same id
  // rebuilds the index and never reuses cached vectors of the old weights.
  const modelName = provider ? (provider.fingerprint ? `${provider.model}@${provider.fingerprint}` : provider.model) : "";
  const fingerprint = chunkingFingerprint(config);
  let store = (await env.store(dimension)) as StoreLike;
  const read = readManifest(stateDir);
  const tableDir = localTableDir(env);
  // Damage found by a search, or files of the committed table missing or truncated: the table
  // cannot be trusted (or even cleared), so it is moved aside and the index rebuilt.
  const damage = env.storeDamage || (read.status === "ok" ? await storeDamage(tableDir, read.manifest.storeFiles, store, { verifyUnrecorded: true }) : null);
  if (damage) {
    logger.error("the vector store is damaged; moving it aside and rebuilding", { reason: damage });
    store = ((await env.resetStore?.(dimension)) ?? store) as StoreLike;
    env.storeDamage = null;
  }
  const startCheckpoint = await store.checkpoint();
  mark("open");
  let manifest: Manifest;
  let keyword: KeywordIndex | null = null;
  let rebuildReason: string | null = null;
  if (damage) {
    rebuildReason = `the store's files are damaged (${damage})`;
  } else if (options.force) {
    rebuildReason = "a full rebuild was requested";
  } else if (read.status === "missing") {
    if ((await store.count()) > 0) rebuildReason = "the manifest is missing but the store has rows";
  } else if (read.status === "corrupt") {
    rebuildReason = `the manifest is corrupt (${read.reason})`;
  } else {
    const m = read.manifest;
    const settingsChange = chunkingChangeReason(m.chunkingFingerprint, config);
    if (m.provider !== providerName || m.model !== modelName) {
      const was = m.provider === "none" ? "keyword-only" : `${m.provider}/${m.model}`;
      const now = provider ? `${providerName}/${modelName}` : `keyword-only (${keywordOnlyReason ?? "no embedding model"})`;
      rebuildReason = `the embedding model changed (${was} -> ${now})`;
    } else if (m.dimension !== dimension) {
      rebuildReason = `the embedding dimension changed (${m.dimension} -> ${dimension})`;
    } else if (settingsChange) {
      rebuildReason = settingsChange;
    } else {
      rebuildReason = await reconcileStore(store, m, startCheckpoint, logger);
      if (!rebuildReason) {
        // Read when the pass first changes something (kwIndex below): a no-op pass of a big
        // workspace would otherwise parse the whole keyword index for nothing (100k files,
        // 175k chunks: a 31 MB snapshot).
        keyword = env.keyword && env.keywordGeneration === m.generation ? env.keyword : null;
        if (!keyword && !keywordFilesExist(stateDir, m)) rebuildReason = "the keyword index snapshot is missing or unreadable";
      }
    }
  }
  if (rebuildReason || read.status !== "ok") {
    if (rebuildReason) logger.info("rebuilding the index", { reason: rebuildReason });
    try {
      await store.clear();
    } catch (err) {
      // A table too damaged to delete from: start from a fresh one.
      const fresh = await env.resetStore?.(dimension);
      if (!fresh) throw err;
      logger.error("cannot clear the vector store; moved it aside", { error: oneLine(err) });
      store = fresh as StoreLike;
    }
    keyword = new KeywordIndex();
    const prevGeneration = read.status === "ok" ? read.manifest.generation : 0;
    manifest = emptyManifest(providerName, modelName, dimension, fingerprint);
    manifest.generation = prevGeneration;
  } else {
    // Freshly parsed for this pass: edited in place, written back at commit.
    manifest = (read as { manifest: Manifest }).manifest;
    // Settings that changed without needing a rebuild (descriptions off) are the new baseline.
    manifest.chunkingFingerprint = fingerprint;
  }
  const previousKeywordFiles = read.status === "ok" ? keywordFilesOf(read.manifest) : [];
  // Keyword changes of this pass, for a delta file (removals apply before additions: a pass
  // never removes and re-adds the same id).
  const kwRemoved: string[] = [];
  const kwAdded: KeywordDoc[] = [];
  let touchedEntries = 0;
  const storeWrites = new SerialWrites();
  summary.rebuildReason = rebuildReason;
  mark("reconcile");
  // The pass edits this keyword index in place. Searches in this process may see it mid-pass
  // (hits whose rows are not stored yet are dropped by retrieval); a failed pass discards it.
  let kwLoaded: KeywordIndex | null = keyword;
  const kwIndex = (): KeywordIndex => {
    if (kwLoaded) return kwLoaded;
    const committed = (read as { manifest: Manifest }).manifest;
    const loaded = loadKeywordSnapshot(stateDir, committed);
    if (!loaded) {
      // Gone, the next pass finds the snapshot missing and rebuilds the index.
      for (const f of keywordFilesOf(committed)) removeQuietly(join(stateDir, f));
      throw new Error("the keyword index snapshot is unreadable; the next index pass rebuilds the index");
    }
    kwLoaded = loaded;
    env.keyword = loaded;
    return loaded;
  };
  // A rebuild over a committed index fills a new keyword index: searches keep the committed one
  // (and the store's committed version) until this pass commits.
  if (kwLoaded && !(rebuildReason && read.status === "ok")) env.keyword = kwLoaded;

  // Files this pass left out and why; `examined`: the paths a partial pass looked at.
  const skippedFiles = new Map<string, string>();
  let examined: string[] | null = null;
  try {
    await runSteps();
  } catch (err) {
    // Leave the store exactly as the manifest describes it; the next pass starts clean.
    env.keyword = null;
    try {
      await store.rollbackTo(startCheckpoint);
    } catch (rollbackErr) {
      logger.error("rollback after a failed pass failed; the next pass will reconcile", { error: oneLine(rollbackErr) });
    }
    throw err;
  }
  writeSkippedList(stateDir, skippedFiles, examined);
  summary.durationMs = Date.now() - started;
  progress.phase = "done";
  report(true);
  logger.info("index pass finished", { ...summary, errors: summary.errors.length, warnings: summary.warnings.length });
  logger.debug("index pass timings (ms)", timings);
  return summary;

  async function runSteps(): Promise<void> {
    // 2. Which files exist now (stat only).
    const rules = ignoreRulesFor(env);
    const walkOpts = { rules, maxFileSizeBytes: config.indexing.maxFileSizeBytes, signal: options.signal };
    let present: WalkedFile[];
    let deleted: string[];
    // A partial pass looks only at the given files. An ignore file among them changes what
    // every path means, and a folder would need its own walk: both make it a full pass.
    const partial =
      options.onlyPaths &&
      !rebuildReason &&
      read.status === "ok" &&
      !options.onlyPaths.some((p) => isIgnoreFile(p) || isExistingFolder(join(env.root, p)));
    if (partial) {
      const r = statPaths(env.root, [...new Set(options.onlyPaths!)], walkOpts);
      present = r.files;
      summary.filesSkipped += r.skipped.length;
      for (const f of r.skipped) skippedFiles.set(f.path, f.reason);
      examined = [...new Set(options.onlyPaths!)];
      const goneSet = new Set<string>();
      for (const g of r.gone) {
        if (manifest.files[g]) goneSet.add(g);
        // A folder was removed or renamed: everything under it goes.
        const prefix = g + "/";
        for (const p of Object.keys(manifest.files)) if (p.startsWith(prefix)) goneSet.add(p);
      }
      deleted = [...goneSet];
    } else {
      const r = await walkWorkspace(env.root, walkOpts);
      present = r.files;
      summary.filesSkipped += r.skipped.length;
      for (const f of r.skipped) skippedFiles.set(f.path, f.reason);
      const seen = new Set(present.map((f) => f.path));
      deleted = Object.keys(manifest.files).filter((p) => !seen.has(p));
    }
    summary.filesScanned = present.length;
    mark("walk");
    checkAbort();

    // 3. Changed files: size or mtime differ from the manifest. The rest is not even opened.
    const changed: FileToPrepare[] = [];
    for (const f of present) {
      const entry = manifest.files[f.path];
      if (entry && entry.size === f.size && entry.mtimeMs === f.mtimeMs) {
        summary.filesUnchanged++;
        if (entry.skipped) {
          summary.filesSkipped++;
          skippedFiles.set(f.path, entry.skipped);
        }
        continue;
      }
      changed.push({ path: f.path, absPath: f.absPath, size: f.size, mtimeMs: f.mtimeMs, previousHash: entry?.hash });
    }
    mark("diff");
    progress.filesTotal = changed.length + deleted.length;
    progress.phase = "chunking";
    report(true);

    // 4. Deleted files: their rows go.
    if (deleted.length > 0) {
      const ids: string[] = [];
      for (const p of deleted) {
        ids.push(...manifest.files[p].chunkIds);
        delete manifest.files[p];
      }
      await store.deleteByIds(ids);
      kwIndex().removeIds(ids);
      kwRemoved.push(...ids);
      summary.filesDeleted = deleted.length;
      summary.chunksRemoved += ids.length;
      progress.filesDone += deleted.length;
      report();
    }

    // 5. Changed files in batches: prepare (read, hash, chunk) -> enrich -> embed -> write.
    const totalBytes = changed.reduce((s, f) => s + f.size, 0);
    const cpu = env.cpu ?? null;
    // A background pass chunks in low-priority workers (never on a host's main thread), and
    // on a one-core budget the workers and this thread take turns instead of overlapping.
    const pool = totalBytes >= POOL_MIN_BYTES ? ChunkPool.create(config, env.root, cpu ? Math.max(1, cpu.chunkWorkers) : undefined, { lowPriority: !!cpu }) : null;
    const prefetch = pool ? (cpu && cpu.cores < 2 ? 0 : PREFETCH_BATCHES) : 0;
    const ctx: FileHandlerContext = { chunking: config.chunking, config, root: env.root };
    // In-process chunking runs one file at a time: it is CPU-bound anyway, and concurrent
    // first loads of a tree-sitter grammar in one thread are not safe.
    let inProcess: Promise<unknown> = Promise.resolve();
    const prepareHere = (f: FileToPrepare): Promise<PreparedFile> => {
      const run = inProcess.then(() => prepareFile(f, ctx));
      inProcess = run.catch(() => undefined);
      return run;
    };
    // A file counts as done once read and chunked: a small repository is one batch, whose
    // embedding and writing come at the end, and the count must move before that.
    const prepare = (f: FileToPrepare): Promise<PreparedFile> =>
      (pool && workerCanHandle(f.path) ? pool.prepare(f) : prepareHere(f)).then((p) => {
        progress.filesDone++;
        report();
        return p;
      });
    const cache = provider && dimension ? EmbeddingCache.reuseOrOpen(env.embeddingCache, stateDir, providerName, modelName, dimension) : null;
    env.embeddingCache = cache;
    try {
      const batches = toBatches(changed);
      // Workers prepare the next batches while this thread embeds and writes the current one.
      const ahead: Array<Promise<PreparedFile[]>> = [];
      let queued = 0;
      const queueUpTo = (n: number) => {
        while (queued < batches.length && queued < n) ahead.push(Promise.all(batches[queued++].map(prepare)));
      };
      for (let b = 0; b < batches.length; b++) {
        queueUpTo(b + 1 + prefetch);
        const prepared = await ahead.shift()!;
        mark("prepare");
        checkAbort();
        queueUpTo(b + 1 + (pool ? prefetch : 1));
        await applyBatch(prepared, cache);
        mark("embed+write");
      }
      await storeWrites.settle();
      mark("batch:store");
    } finally {
      // after a failure, no write may still be running when the pass rolls the store back
      await storeWrites.drain();
      await pool?.close();
      cache?.releaseAbove(CACHE_KEEP_BYTES);
    }

    // 6. Commit: store durable -> keyword snapshot -> manifest (atomic) -> old snapshot removed.
    progress.phase = "writing";
    report(true);
    const changedAnything =
      rebuildReason !== null || read.status !== "ok" || kwRemoved.length > 0 || summary.chunksAdded > 0 || summary.filesDeleted > 0;
    await commit(changedAnything, cache);
    mark("commit");
  }

  function toBatches(files: FileToPrepare[]): FileToPrepare[][] {
    const out: FileToPrepare[][] = [];
    let cur: FileToPrepare[] = [];
    let bytes = 0;
    for (const f of files) {
      if (cur.length > 0 && (cur.length >= BATCH_MAX_FILES || bytes + f.size > BATCH_MAX_BYTES)) {
        out.push(cur);
        cur = [];
        bytes = 0;
      }
      cur.push(f);
      bytes += f.size;
    }
    if (cur.length > 0) out.push(cur);
    return out;
  }

  async function applyBatch(prepared: PreparedFile[], cache: EmbeddingCache | null): Promise<void> {
    const removeIds: string[] = [];
    const addRecords: ChunkRecord[] = [];
    const addTexts: string[] = [];
    const touched: Array<{ path: string; entry: ManifestFileEntry }> = [];
    for (const p of prepared) {
      const old = manifest.files[p.path];
      if (p.kind === "error") {
        if (p.error === "deleted while indexing") {
          if (old) {
            removeIds.push(...old.chunkIds);
            delete manifest.files[p.path];
            summary.filesDeleted++;
          }
        } else {
          summary.errors.push({ filePath: p.path, error: p.error });
          skippedFiles.set(p.path, p.error);
          // Keep the old chunks, but make the next pass try this file again.
          if (old) {
            old.mtimeMs = -1;
            touchedEntries++;
          }
        }
        continue;
      }
      summary.bytesRead += p.bytes;
      progress.bytesDone += p.bytes;
      if (p.kind === "same-content") {
        touched.push({ path: p.path, entry: { ...old!, size: p.size, mtimeMs: p.mtimeMs } });
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
        logger.info("file indexed as line windows", { filePath: p.path, reason: warning });
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

    mark("batch:records");
    // Optional steps between chunking and embedding (descriptions, …).
    if (addRecords.length > 0) {
      for (const enricher of chunkEnrichers()) {
        // The progress bar says "describing" only when descriptions (F14) are on.
        if (config.description.enabled) {
          progress.phase = "describing";
          report();
        }
        try {
          await enricher.enrich(addRecords, { ...{ chunking: config.chunking, config, root: env.root }, signal: options.signal });
        } catch (err) {
          logger.error(`${enricher.name} failed; chunks are indexed without it`, { error: oneLine(err) });
        }
      }
    }

    // Vectors: from the cache by content, the rest from the model in batches.
    const vectors: Array<Float32Array | null> = new Array(addRecords.length).fill(null);
    if (provider && addRecords.length > 0) {
      progress.phase = "embedding";
      report();
      // A description written by an enricher is part of what gets embedded (and of the cache key).
      const inputs = addRecords.map((r, i) => (r.description ? embeddingText(r) : addTexts[i]));
      const keys = addRecords.map((r, i) => (r.description ? hashBytes(inputs[i]) : r.contentHash));
      const missing: number[] = [];
      for (let i = 0; i < addRecords.length; i++) {
        const hit = cache?.get(keys[i]);
        if (hit) {
          vectors[i] = hit;
          summary.chunksFromCache++;
        } else missing.push(i);
      }
      // A remote provider sends up to `concurrency` batches at once: give it that many per call.
      const parallel = provider.provider === "local" ? 1 : Math.max(1, config.embedding.concurrency);
      const batchSize = Math.max(1, config.embedding.batchSize) * parallel;
      for (let s = 0; s < missing.length; s += batchSize) {
        checkAbort();
        const slice = missing.slice(s, s + batchSize);
        const out = await provider.embed(
          slice.map((i) => inputs[i]),
          "document",
        );
        slice.forEach((i, k) => {
          vectors[i] = out[k];
          cache?.set(keys[i], out[k]);
        });
        summary.chunksEmbedded += slice.length;
        progress.chunksDone += slice.length;
        report();
      }
    }

    // Vectors are appended to the cache per batch: a pass killed later does not pay for them again.
    cache?.flush();
    mark("batch:enrich+embed");
    // Writes: old rows out, new rows in; the keyword index follows the store.
    progress.phase = "writing";
    // The store writes in its own threads: this batch's write runs while the next batch is
    // embedded (writes stay in order; the pass waits for the last before committing, and a
    // failed write fails the pass at the next batch or the commit).
    await storeWrites.settle();
    mark("batch:store");
    const rows = addRecords.map((r, i) => ({ ...r, vector: vectors[i] }));
    storeWrites.start(async () => {
      if (removeIds.length > 0) await store.deleteByIds(removeIds);
      if (rows.length > 0) await store.add(rows);
    });
    if (removeIds.length > 0) {
      kwIndex().removeIds(removeIds);
      kwRemoved.push(...removeIds);
    }
    if (addRecords.length > 0) {
      const docs = addRecords.map((r, i) => keywordDoc(r, addTexts[i]));
      kwIndex().add(docs);
      if (kwAdded.length + kwRemoved.length <= KEYWORD_DELTA_MAX_OPS) kwAdded.push(...docs);
    }
    mark("batch:keyword");
    for (const t of touched) manifest.files[t.path] = t.entry;
    touchedEntries += touched.length;
    summary.chunksAdded += addRecords.length;
    summary.chunksRemoved += removeIds.length;
    if (!provider) progress.chunksDone += addRecords.length;
    report();
  }

  /** Notes the table's files in the manifest; true when they differ from what it said. */
  function recordStoreFiles(): boolean {
    const files = tableDir ? tableFiles(tableDir) : null;
    if (sameFiles(manifest.storeFiles, files)) return false;
    if (files) manifest.storeFiles = files;
    else delete manifest.storeFiles;
    return true;
  }

  async function commit(changedAnything: boolean, cache: EmbeddingCache | null): Promise<void> {
    const chunkCount = Object.values(manifest.files).reduce((s, e) => s + e.chunkIds.length, 0);
    manifest.lastIndexedAt = new Date().toISOString();
    if (changedAnything) {
      // A background ANN build writes a table version; let it land before the checkpoint.
      await store.waitForAnnBuild?.();
      const storeRows = await store.count();
      if (storeRows !== chunkCount) {
        throw new Error(`the store holds ${storeRows} rows but the pass expected ${chunkCount}; run \`opencode-rag index --force\``);
      }
      manifest.generation += 1;
      mark("commit:store-count");
      const deltas = manifest.keywordDeltas ?? [];
      const small = kwAdded.length + kwRemoved.length <= KEYWORD_DELTA_MAX_OPS;
      if (!rebuildReason && read.status === "ok" && manifest.keywordFile && small && deltas.length < KEYWORD_DELTA_MAX_FILES) {
        const deltaFile = `${KEYWORD_FILE_PREFIX}${manifest.generation}.delta.json`;
        const delta: KeywordDelta = { remove: kwRemoved, add: kwAdded };
        writeFileAtomic(join(stateDir, deltaFile), JSON.stringify(delta));
        manifest.keywordDeltas = [...deltas, deltaFile];
      } else {
        const keywordFile = `${KEYWORD_FILE_PREFIX}${manifest.generation}.bin`;
        writeFileAtomic(join(stateDir, keywordFile), kwIndex().serialize());
        manifest.keywordFile = keywordFile;
        manifest.keywordDeltas = [];
      }
      mark("commit:keyword");
      manifest.chunkCount = chunkCount;
      // Small fragments left by this pass's writes slow every search: compact them, keeping
      // the versions this pass may still roll back to: its start (a failure) and the one the
      // old manifest names (a crash before the new manifest is written).
      // A workspace's first index has no committed version to keep: a failure or a crash
      // before its manifest is written leaves rows without a manifest, which the next pass
      // clears anyway. So every version but the compacted one goes now; otherwise the write
      // batches' fragments stayed on disk beside their compacted copy (3x the table's data).
      const firstIndex = read.status !== "ok";
      const oldManifestCheckpoint = read.status === "ok" ? read.manifest.storeCheckpoint : startCheckpoint;
      await store.compact?.(Math.min(startCheckpoint, oldManifestCheckpoint));
      if (firstIndex) await store.dropOldVersions?.();
      mark("commit:compact");
      manifest.storeCheckpoint = await store.checkpoint();
      recordStoreFiles();
      writeManifest(stateDir, manifest);
      const keep = new Set(keywordFilesOf(manifest));
      for (const f of previousKeywordFiles) if (!keep.has(f)) removeQuietly(join(stateDir, f));
      removeOrphanSnapshots(stateDir, keep);
      // Listing every row is costly on a big store: only when dead cache entries may dominate.
      if (cache && cache.sizeOnDisk >= 1000 && cache.sizeOnDisk >= 2 * chunkCount) {
        const live = new Set<string>();
        // Only content hashes are known here without reading rows; descriptions' keys age out on rebuild.
        for (const r of await store.listAll()) live.add(r.contentHash);
        cache.compact(live);
      }
    } else {
      // Nothing was added or removed; the manifest is rewritten only when some entry changed
      // (a touched file's new mtime) or the store moved (a rollback makes a new version).
      const checkpoint = await store.checkpoint();
      const filesMoved = recordStoreFiles();
      if (touchedEntries > 0 || checkpoint !== manifest.storeCheckpoint || filesMoved) {
        manifest.storeCheckpoint = checkpoint;
        writeManifest(stateDir, manifest);
      }
    }
    // A pass that changed nothing may not have read the keyword index: searches read it then.
    if (kwLoaded) {
      env.keyword = kwLoaded;
      env.keywordGeneration = manifest.generation;
    }
  }
}

/**
 * Makes the store match a manifest written by an earlier pass: rolls back rows a killed pass
 * wrote after the manifest's checkpoint. Returns a rebuild reason when that is impossible.
 */
async function reconcileStore(store: VectorStore, m: Manifest, current: number, logger: Logger): Promise<string | null> {
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

function isExistingFolder(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** Keyword files no manifest names: left by a pass killed before its commit. */
function removeOrphanSnapshots(stateDir: string, keep: Set<string>): void {
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

/**
 * Brings a store left ahead of its manifest by a killed pass back to the manifest's
 * checkpoint, when no live pass holds the lock. Hosts call this on open so readers never see
 * half a pass. Returns true when it rolled back.
 */
export async function recoverInterruptedPass(stateDir: string, store: VectorStore, logger: Logger): Promise<boolean> {
  const read = readManifest(stateDir);
  if (read.status !== "ok") return false;
  let lock;
  try {
    lock = acquireIndexLock(stateDir);
  } catch {
    return false; // a live pass owns the store; it reconciles itself
  }
  try {
    const current = await store.checkpoint();
    if (current <= read.manifest.storeCheckpoint) return false;
    await store.rollbackTo(read.manifest.storeCheckpoint);
    // The rollback is a new version with the old content: record it so this is not repeated.
    const m = read.manifest;
    m.storeCheckpoint = await store.checkpoint();
    writeManifest(stateDir, m);
    logger.info("rolled back rows of an interrupted pass", { from: current });
    return true;
  } catch (err) {
    logger.error("cannot roll back rows of an interrupted pass", { error: oneLine(err) });
    return false;
  } finally {
    lock.release();
  }
}
