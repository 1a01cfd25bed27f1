// The query path, top to bottom: bring the committed index up to date, plan (mode, result
// count, whether vectors can be used), embed the query, gather and rank candidates
// (core/retrieval: keyword + vector candidates, fusion, ranking, result shaping), and turn a
// failed read into a retry, a damage report or one clean line.
import { existsSync } from "node:fs";
import type { RagConfig } from "../config/defaults.js";
import type { Logger, SearchOptions } from "../engine-types.js";
import type { EmbeddingProvider, SearchResult, VectorStore } from "../types.js";
import { cleanErrorMessage } from "../error-line.js";
import { oneLine } from "../indexing/prepare-file.js";
import { IndexDamagedError } from "../indexing/store-files.js";
import { redact } from "../redact.js";
import { hybridSearch, rankCandidates, type RetrievalMode } from "../retrieval/index.js";
import type { CommittedIndex } from "./committed-index.js";
import type { EmbeddingSlot } from "./embedding-slot.js";
import { diagnoseReadFailure, type DamageRebuilds } from "./store-damage.js";
import type { StoreSlot } from "./store-slot.js";

/** What the query path uses of its engine. */
export interface QueryContext {
  config: RagConfig;
  logger: Logger;
  embedding: EmbeddingSlot;
  store: StoreSlot;
  committed: CommittedIndex;
  damage: DamageRebuilds;
  /** Pulls a shared index's latest commit (throttled). */
  refreshShared(): Promise<void>;
  /** Drops a store whose table was deleted or replaced on disk, and what was read from it. */
  dropReplacedStore(): Promise<void>;
  /** The first search of an opened store checks it for damage and rolls back a killed pass's rows. */
  recoverOnce(store: VectorStore): Promise<void>;
}

/** A rebuild may replace the store mid-search: that read is retried once on the new store. */
export async function runQuery(ctx: QueryContext, query: string, options: SearchOptions, retriesLeft = 1): Promise<SearchResult[]> {
  await ctx.refreshShared();
  const { provider } = await ctx.embedding.get();
  // A keyword search needs no model at all (describe_image relies on that): the index's own
  // dimension opens the store, so a remote provider is not even probed.
  const { dimension, down } = options.mode === "keyword" ? { dimension: ctx.committed.read().dimension, down: false } : await searchDimension(ctx, provider);
  const r = ctx.config.retrieval;
  let mode: RetrievalMode = options.mode ?? (r.hybrid ? "hybrid" : "vector");
  // In a fresh process, reading the keyword index (off this thread), opening the store
  // (LanceDB's threads) and loading the model (this thread) are first-time costs of similar
  // size: they run together. The query is embedded before the store says whether its vectors
  // can be used; when they cannot, that vector goes unused.
  const keywordLoad = ctx.committed.keyword();
  const opening = openForSearch(ctx, dimension);
  for (const p of [keywordLoad, opening]) p.catch(() => undefined); // awaited below
  const mayUseVectors = !down && provider !== null && dimension !== null && mode !== "keyword" && query.trim().length > 0;
  const embedding = mayUseVectors ? embedQuery(ctx, provider!, query) : Promise.resolve(null);
  const latest = await opening;
  const keyword = await keywordLoad;
  const store = await ctx.store.committed(latest, ctx.committed.read().checkpoint);

  const topK = options.uncapped ? (options.topK ?? r.topK) : Math.min(options.topK ?? r.topK, r.maxChunks);
  const vectorsUsable = mayUseVectors && ctx.store.dimension === dimension;
  if (!vectorsUsable && mode === "vector") mode = "keyword";
  let queryVector: Float32Array | null = null;
  if (vectorsUsable && mode !== "keyword") {
    queryVector = await embedding;
    if (!queryVector) mode = "keyword";
  }

  try {
    return await hybridSearch({
      query,
      queryVector,
      store,
      keyword,
      topK,
      minScore: options.minScore ?? r.minScore,
      filter: options.filter,
      mode,
      rank: options.rank ?? r.rank,
      ranker: (q, candidates, evidence) => rankCandidates(q, candidates, { ...evidence, features: r.rankFeatures }),
    });
  } catch (err) {
    if (retriesLeft > 0 && (await ctx.store.replacedSince(latest))) return runQuery(ctx, query, options, retriesLeft - 1);
    // Only a local table's files can be told damaged from a read error; in a bucket the same
    // error is far more often the network, and a rebuild there would be everyone's.
    const damage = ctx.store.tableDir() ? await diagnoseReadFailure(store, err) : null;
    if (damage) throw ctx.damage.found(damage);
    throw cleaned(err);
  }
}

/**
 * The model's vector length for searching. A remote provider that cannot be reached must not
 * fail a search keywords can answer: use the dimension the index was built with, and no vectors.
 */
async function searchDimension(ctx: QueryContext, provider: EmbeddingProvider | null): Promise<{ dimension: number | null; down: boolean }> {
  if (!provider) return { dimension: null, down: false };
  try {
    return { dimension: await provider.dimension(), down: false };
  } catch (err) {
    ctx.logger.error("the embedding provider is unreachable; searching keywords only", { error: oneLine(err) });
    return { dimension: ctx.committed.read().dimension, down: true };
  }
}

/** The open store, or the store opened for searching; a table that exists but cannot be opened is damaged. */
async function openForSearch(ctx: QueryContext, dimension: number | null): Promise<VectorStore> {
  await ctx.dropReplacedStore();
  const open = ctx.store.current();
  try {
    if (open && ctx.store.dimension !== undefined) return await open;
    const store = await ctx.store.forSearch(dimension);
    await ctx.recoverOnce(store);
    return store;
  } catch (err) {
    if (err instanceof IndexDamagedError) throw err;
    // A table that exists but cannot be opened (its version files gone or corrupt) is damaged.
    const table = ctx.store.tableDir();
    if (table && existsSync(table)) throw ctx.damage.found(oneLine(err));
    throw cleaned(err);
  }
}

/** The query's vector, or null when the provider fails mid-session (keywords still answer). */
async function embedQuery(ctx: QueryContext, provider: EmbeddingProvider, query: string): Promise<Float32Array | null> {
  try {
    // A remote embedder gets the query as redacted as the chunks it was given.
    const text = provider.provider === "local" ? query : redact(query, "text");
    return (await provider.embed([text], "query"))[0];
  } catch (err) {
    ctx.logger.error("embedding the query failed; searching keywords only", { error: oneLine(err) });
    return null;
  }
}

/** The same error (class and stack kept) without LanceDB's Rust source locations in its message. */
export function cleaned(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(oneLine(err));
  err.message = cleanErrorMessage(err.message);
  return err;
}
