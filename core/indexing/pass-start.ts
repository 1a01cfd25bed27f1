// Step 1 of a pass: what vectors it makes, what the index on disk was made with, and so
// whether it continues that index (rolled back to its commit) or rebuilds from scratch.
import type { IndexOptions, Logger } from "../engine-types.js";
import type { EmbeddingProvider } from "../types.js";
import { KeywordIndex } from "../keyword/keyword-index.js";
import { chunkingChangeReason, chunkingFingerprint } from "./fingerprint.js";
import { keywordFilesUsable } from "./keyword-files.js";
import { recordedModelName } from "./index-model.js";
import { emptyManifest, readManifestHeader, readManifestInSlices, type FileCounts, type Manifest, type ManifestRead } from "./manifest.js";
import { localTableDir, passSliceMs, type PassEnv, type StoreLike } from "./pass-env.js";
import { oneLine } from "../error-line.js";
import { reconcileStore } from "./recover.js";
import { storeDamage } from "./store-files.js";

export interface PassStart {
  provider: EmbeddingProvider | null;
  dimension: number | null;
  providerName: string;
  /** The model id with its weights' fingerprint: part of the index's identity. */
  modelName: string;
  store: StoreLike;
  /** The local table folder, or null (object storage, memory://). */
  tableDir: string | null;
  /** The manifest as this pass found it. */
  read: ManifestRead;
  /** What the pass commits: the found manifest edited in place, or an empty one for a rebuild. */
  manifest: Manifest;
  /** The counts of `manifest.files`, kept current by its edits; null: counted at the commit. */
  counts: FileCounts | null;
  /** Why the pass rebuilds from scratch; null when it continues the committed index. */
  rebuildReason: string | null;
  /** The store version the pass started from: a failure rolls back to it. */
  startCheckpoint: number;
  /** The keyword index to continue from when this process already holds the committed one. */
  keyword: KeywordIndex | null;
}

export async function startPass(env: PassEnv, options: IndexOptions): Promise<PassStart> {
  const { config, stateDir, logger } = env;
  const { provider, reason: keywordOnlyReason } = await env.embedding();
  if (!provider && !options.force) {
    // A typo in embedding.model or a missing API key must not silently trade an index's
    // vectors for a keyword-only rebuild: stop, keep the index, say how to proceed.
    const before = readManifestHeader(stateDir);
    if (before.status === "ok" && before.header.provider !== "none") {
      throw new Error(
        `no embedding model is available (${keywordOnlyReason ?? "unknown reason"}); the index keeps its ${before.header.provider}/${before.header.model} vectors: fix embedding.* in the config, or run "opencode-rag index --force" to rebuild it keyword-only`,
      );
    }
  }
  const dimension = provider ? await provider.dimension() : null;
  const providerName = provider ? provider.provider : "none";
  // The weights' fingerprint is part of the identity: a model upgraded under the same id
  // rebuilds the index and never reuses cached vectors of the old weights.
  const modelName = provider ? recordedModelName(provider) : "";
  const fingerprint = chunkingFingerprint(config);
  let store = (await env.store(dimension)) as StoreLike;
  // The pass owns what it reads (it edits the manifest in place): a table kept from this
  // process's last commit is taken, and kept again only by this pass's commit.
  const written = env.writtenFiles;
  env.writtenFiles = null;
  const read = await readManifestInSlices(stateDir, passSliceMs(env), written);
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
        // Read when the pass first changes something (PassKeywords): a no-op pass of a big
        // workspace would otherwise parse the whole keyword index for nothing (100k files,
        // 175k chunks: a 31 MB snapshot).
        keyword = env.keyword && env.keywordGeneration === m.generation ? env.keyword : null;
        if (!keyword && !keywordFilesUsable(stateDir, m)) rebuildReason = "the keyword index snapshot is missing, unreadable or of an older format";
      }
    }
  }
  let manifest: Manifest;
  let counts: FileCounts | null;
  if (rebuildReason || read.status !== "ok") {
    if (rebuildReason) logger.info("rebuilding the index", { reason: rebuildReason });
    store = await clearForRebuild(env, store, dimension, logger);
    keyword = new KeywordIndex();
    const prevGeneration = read.status === "ok" ? read.manifest.generation : 0;
    manifest = emptyManifest(providerName, modelName, dimension, fingerprint);
    manifest.generation = prevGeneration;
    counts = { chunks: 0, indexedFiles: 0, listedFiles: 0 };
  } else {
    // Freshly parsed for this pass: edited in place, written back at commit.
    manifest = read.manifest;
    // Settings that changed without needing a rebuild (descriptions off) are the new baseline.
    manifest.chunkingFingerprint = fingerprint;
    // The header's, copied: the pass edits them with the entries (the read keeps what was committed).
    counts = read.counts ? { ...read.counts } : null;
  }
  return { provider, dimension, providerName, modelName, store, tableDir, read, manifest, counts, rebuildReason, startCheckpoint, keyword };
}

async function clearForRebuild(env: PassEnv, store: StoreLike, dimension: number | null, logger: Logger): Promise<StoreLike> {
  try {
    await store.clear();
    return store;
  } catch (err) {
    // A table too damaged to delete from: start from a fresh one.
    const fresh = await env.resetStore?.(dimension);
    if (!fresh) throw err;
    logger.error("cannot clear the vector store; moved it aside", { error: oneLine(err) });
    return fresh as StoreLike;
  }
}
