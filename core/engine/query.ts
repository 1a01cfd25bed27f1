// The query path, top to bottom: bring the committed index up to date, plan (mode, result
// count, whether vectors can be used), embed the query, gather and rank candidates
// (core/retrieval: keyword + vector candidates, fusion, ranking, result shaping), and turn a
// failed read into a retry, a damage report or one clean line.
import { existsSync } from "node:fs";
import type { RagConfig } from "../config/defaults.js";
import type { Logger, SearchOptions } from "../engine-types.js";
import type { EmbeddingProvider, SearchResult, VectorStore } from "../types.js";
import { cleanErrorMessage } from "../error-line.js";
import { oneLine } from "../error-line.js";
import { IndexDamagedError } from "../indexing/store-files.js";
import { vectorsUnusableReason } from "../indexing/index-model.js";
import { redact } from "../redact.js";
import { hybridSearch, searchText, type RetrievalMode } from "../retrieval/index.js";
import type { CommittedHeader, CommittedIndex } from "./committed-index.js";
import type { PathHints } from "../path-class.js";
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
  /** What the workspace's files tell of their paths (published example folders, generators' marks): lookups read anew for each committed index. */
  pathHints(index: CommittedHeader): PathHints;
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
  // size: they run together. The query is embedded before the index says whether its vectors
  // can be used; when they cannot, that vector goes unused.
  const keywordLoad = ctx.committed.keyword();
  const opening = openForSearch(ctx, dimension);
  for (const p of [keywordLoad, opening]) p.catch(() => undefined); // awaited below
  // Vectors of another model (a model switched, its rebuild not committed yet) answer nothing.
  const committed = ctx.committed.read();
  const otherModel = vectorsUnusableReason(committed.model, provider) !== null;
  const mayUseVectors = !down && !otherModel && provider !== null && dimension !== null && mode !== "keyword" && query.trim().length > 0;
  const embedding = mayUseVectors ? embedQuery(ctx, provider!, query) : Promise.resolve(null);
  // The candidates come from the keyword index (its postings and vector codes): they are found
  // while the store still opens, which only the records read waits for.
  const store = opening.then(async ({ latest, recovered }) => {
    const view = await ctx.store.committed(latest, ctx.committed.read().checkpoint);
    await recovered;
    return view;
  });
  store.catch(() => undefined); // awaited by the search, or below
  const keyword = await keywordLoad;

  const topK = options.uncapped ? (options.topK ?? r.topK) : Math.min(options.topK ?? r.topK, r.maxChunks);
  let vectorsUsable = mayUseVectors && keyword.vectorDimension === dimension;
  if (mayUseVectors && !vectorsUsable) {
    // an index that keeps no vectors (an older one) searches the store's: of the model's length?
    await opening;
    vectorsUsable = ctx.store.dimension === dimension;
  }
  if (!vectorsUsable && mode === "vector") mode = "keyword";
  let queryVector: Float32Array | null = null;
  if (vectorsUsable && mode !== "keyword") {
    queryVector = await embedding;
    if (!queryVector) mode = "keyword";
  }

  try {
    const results = await hybridSearch({
      query,
      queryVector,
      store,
      keyword,
      topK,
      minScore: options.minScore ?? r.minScore,
      filter: options.filter,
      mode,
      rank: options.rank ?? r.rank,
      pool: options.pool,
      rankFeatures: r.rankFeatures,
      hints: ctx.pathHints(committed),
      embedder: provider,
      onNamesFailed: (err) => ctx.logger.info("ranked without the names' lift: the model could not embed them", { error: oneLine(err) }),
    });
    // A search that found no candidates read nothing: the store's first-search check (damage,
    // a killed pass's rows) still answers before it does.
    await store;
    return results;
  } catch (err) {
    // A store that did not open says why itself (openForSearch: damage found, or a clean line).
    const { latest } = await opening;
    if (retriesLeft > 0 && (await ctx.store.replacedSince(latest))) return runQuery(ctx, query, options, retriesLeft - 1);
    // Only a local table's files can be told damaged from a read error; in a bucket the same
    // error is far more often the network, and a rebuild there would be everyone's.
    const damage = ctx.store.tableDir() ? await diagnoseReadFailure(await store, err) : null;
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

/**
 * The open store, or the store opened for searching, with its first search's recovery (damage
 * found, a killed pass's rows rolled back) under way: the committed view opens meanwhile, and
 * reads wait for both. A table that exists but cannot be opened is damaged.
 */
async function openForSearch(ctx: QueryContext, dimension: number | null): Promise<{ latest: VectorStore; recovered: Promise<void> }> {
  await ctx.dropReplacedStore();
  const open = ctx.store.current();
  if (open && ctx.store.dimension !== undefined) return { latest: await storeErrors(ctx, () => open), recovered: Promise.resolve() };
  const latest = await storeErrors(ctx, () => ctx.store.forSearch(dimension));
  const recovered = storeErrors(ctx, () => ctx.recoverOnce(latest));
  recovered.catch(() => undefined); // awaited before any read
  return { latest, recovered };
}

/** What `step` gives, its failure said as a damaged index or one clean line. */
async function storeErrors<T>(ctx: QueryContext, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
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
    // Embedded without a request's scaffolding ("explain how …"), as the keyword search reads it.
    const words = searchText(query);
    const text = provider.provider === "local" ? words : redact(words, "text");
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
