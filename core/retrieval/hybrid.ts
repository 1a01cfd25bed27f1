// Hybrid retrieval (F11): keyword (BM25) and vector candidates, fused (fusion.ts), ranked
// (rank.ts), de-duplicated, thresholded. Portable: no Node built-ins. See README.md for the design.
import type { KeywordIndex } from "../keyword/keyword-index.js";
import { PACK_SEPARATOR } from "../chunking/pack.js";
import type { ChunkRecord, EmbeddingProvider, ScoredId, SearchFilter, SearchResult, VectorStore } from "../types.js";
import { startRanking, type RankCandidate, type RankFeatureFlags, type RankOptions } from "./rank.js";
import { fuseCandidates } from "./fusion.js";
import { focusOnMember, unitNames } from "./features.js";
import { analyseQuery, searchText } from "./query-analysis.js";
import { yieldToEventLoop } from "../yield.js";
import { dot } from "../store/vectors.js";
import { sourceFirstPool, VECTOR_SCAN_DEPTH } from "./vector-pool.js";
import { foreignOrigin, type PathHints } from "../path-class.js";

/** A packed chunk is named by the member the query asks for (analysed once, on the first pack). */
function memberFocus(query: string): (record: ChunkRecord) => ChunkRecord {
  let q: ReturnType<typeof analyseQuery> | null = null;
  return (record) => (record.context.includes(PACK_SEPARATOR) ? focusOnMember((q ??= analyseQuery(query)), record) : record);
}

export type RetrievalMode = "hybrid" | "keyword" | "vector";

export interface HybridInput {
  query: string;
  /** The embedded query; null when no embedding model is available (keyword-only). */
  queryVector: Float32Array | null;
  /**
   * Where the records are read (and vectors searched, for an index that keeps none), or the
   * promise of it while it opens: the keyword index's candidates do not wait for it.
   */
  store: VectorStore | Promise<VectorStore>;
  keyword: KeywordIndex;
  topK: number;
  minScore: number;
  filter?: SearchFilter;
  mode: RetrievalMode;
  rank: boolean;
  /** Return the whole candidate pool, unranked and uncut (`SearchOptions.pool`); `rank` and `minScore` do not apply. */
  pool?: boolean;
  /** The ranking stage's switches (config `retrieval.rankFeatures`); all on when absent. */
  rankFeatures?: Partial<RankFeatureFlags>;
  /** What the paths of the vectors' pool, the ranking and the results' `origin` do not tell; none: the paths decide. */
  hints?: PathHints;
  /** The ranking stage used when `rank` is true; rankCandidates() with the names' lift unless replaced (tests). */
  ranker?: (query: string, candidates: RankCandidate[], options: RankOptions) => RankCandidate[];
  /**
   * The model that embedded the query. When it is cheap to run in process (the bundled one),
   * a statement is also compared with its best candidates' names (`nameSimilarity`); a remote
   * model is never called from a search for more than the query.
   */
  embedder?: EmbeddingProvider | null;
  /**
   * Told when the names could not be embedded: the search goes on without their lift, and the
   * host can log why (this module has no logger).
   */
  onNamesFailed?: (error: unknown) => void;
}

/**
 * Candidates fetched from each source. The pools do not depend on topK up to 25 (the most any
 * tool asks for), so the first results are the same whatever the caller asks for. The keyword
 * pool is large enough for file-level evidence (several chunks of one file) and the path lift
 * to reach files BM25 ranks low; vector hits past the first 50 only added noise on the
 * benchmark (docs/retrieval.md), but source code past them takes the place of tests and
 * documents among them (vector-pool.ts). A larger topK widens both pools.
 */
export const KEYWORD_POOL = 150;
export const VECTOR_POOL = 50;

export async function hybridSearch(input: HybridInput): Promise<SearchResult[]> {
  const { queryVector, store, keyword, filter, mode } = input;
  // Searched and ranked without a request's wording ("explain how …"); callers embed `searchText` too.
  const query = searchText(input.query);
  checkArgs(input);
  if (input.topK === 0 || query.trim().length === 0) return [];
  if (mode === "vector" && !queryVector) {
    throw new Error("vector search needs an embedding model, and none is available: use mode 'keyword' or 'hybrid'");
  }
  const keywordK = Math.max(input.topK * 6, KEYWORD_POOL);
  const vectorK = Math.max(input.topK * 2, VECTOR_POOL);
  const useKeyword = mode !== "vector";
  const useVector = mode !== "keyword" && queryVector !== null;

  // Where the vectors are scanned here (the keyword index's codes), the keyword search goes
  // first and its hits' records are read on the store's threads while this thread scans: a
  // one-off search at 100k files waited ~25 ms for its one read of both lists after the scans.
  // A store's own vector search runs on its threads while the keyword search runs here, and the
  // records of both lists are then read at once. Before the first search, the event loop turns:
  // a store still opening (LanceDB's round trips) goes on meanwhile.
  const scanHere = useVector && keyword.vectorDimension === (queryVector as Float32Array).length;
  const vectorSearch = useVector && !scanHere ? searchVectors(queryVector as Float32Array, vectorK, input) : null;
  vectorSearch?.catch(() => undefined); // awaited below, after work that may throw first
  await yieldToEventLoop();
  // The chunks declaring a name the query gives join the keyword pool however BM25 ranks them.
  const keywordHits = useKeyword ? keyword.search(query, keywordK, filter, analyseQuery(query).identifierKeys) : [];
  const keywordRead = scanHere && keywordHits.length > 0 ? readRecords(store, keywordHits) : null;
  keywordRead?.catch(() => undefined); // awaited below
  if (keywordRead) await yieldToEventLoop(); // the read starts before the scan
  const vectorHits = scanHere
    ? sourceFirstPool(keyword.searchVector(queryVector as Float32Array, vectorK * VECTOR_SCAN_DEPTH, filter), vectorK, input.hints)
    : ((await vectorSearch) ?? []);

  const fused = fuseCandidates(keywordHits, vectorHits, { keyword: useKeyword, vector: useVector, vectorK });
  if (fused.size === 0) return [];
  const asked = new Set(keywordRead ? keywordHits.map((h) => h.id) : []);
  const rest: ScoredId[] = []; // the fused hits not read yet, once each (a keyword hit's row hint first)
  for (const hit of [...keywordHits, ...vectorHits]) {
    if (fused.has(hit.id) && !asked.has(hit.id)) {
      asked.add(hit.id);
      rest.push(hit);
    }
  }
  const reading = Promise.all([keywordRead ?? [], rest.length > 0 ? readRecords(store, rest) : []]);
  reading.catch(() => undefined); // awaited below, after work that may throw first
  await yieldToEventLoop(); // the read starts before the file scores below
  // File-level BM25 of the candidates' files (keyword evidence, so not for vectors-only), while
  // the store reads their records when the hits name their files (the keyword index's do).
  // File sizes describe the index, whatever the mode; file-level BM25 is keyword evidence.
  const fileEvidence = (files: Iterable<string>): Pick<RankOptions, "fileScores" | "fileSizes"> => {
    const named = new Set(files);
    return { fileSizes: keyword.fileSizes(named), ...(useKeyword ? { fileScores: keyword.fileScores(query, named) } : {}) };
  };
  const hitFiles = input.rank && !input.pool ? filesOf(keywordHits, vectorHits) : null;
  const early = hitFiles ? fileEvidence(hitFiles) : null;
  const records = new Map((await reading).flat().map((r) => [r.id, r]));
  let candidates: RankCandidate[] = [];
  for (const [id, f] of fused) {
    const record = records.get(id);
    // A keyword hit the store no longer holds (an index pass in flight) is skipped.
    if (record) candidates.push({ record, ...f });
  }
  if (input.pool) {
    candidates.sort((a, b) => b.score - a.score);
    return candidates.map((c) => ({ chunk: c.record, score: clamp01(c.score) }));
  }
  if (input.rank) {
    const options: RankOptions = {
      ...(early ?? fileEvidence(candidates.map((c) => c.record.filePath))),
      features: input.rankFeatures,
      ...input.hints,
      indexChunks: keyword.size,
    };
    const namesBy =
      useVector && input.embedder?.cheapToRecompute ? { embedder: input.embedder, queryVector: queryVector as Float32Array, onFailed: input.onNamesFailed } : null;
    candidates = input.ranker ? input.ranker(query, candidates, options) : await rankWithNames(query, candidates, options, namesBy);
  } else {
    candidates.sort((a, b) => b.score - a.score);
  }
  // Whatever the ranker did, results leave sorted by their final score.
  if (input.rank) candidates.sort((a, b) => b.score - a.score);

  const results: SearchResult[] = [];
  const kept = new Map<string, ChunkRecord[]>();
  const focus = memberFocus(query);
  for (const c of candidates) {
    const score = clamp01(c.score);
    if (score < input.minScore) break; // sorted: nothing later can pass
    if (overlapsKept(kept, c.record)) continue;
    const origin = foreignOrigin(c.record.filePath, input.hints);
    results.push({ chunk: focus(c.record), score, ...(origin ? { origin } : {}) });
    if (results.length >= input.topK) break;
  }
  return results;
}

/**
 * The ranking stage, with a statement compared with its best candidates' names by the model
 * that embedded it (`nameSimilarity`) when that model is cheap to run here. The names are an
 * extra: should embedding them fail, the ranking goes on without them.
 */
async function rankWithNames(
  query: string,
  candidates: RankCandidate[],
  options: RankOptions,
  namesBy: { embedder: EmbeddingProvider; queryVector: Float32Array; onFailed?: (error: unknown) => void } | null,
): Promise<RankCandidate[]> {
  const ranking = startRanking(query, candidates, options);
  if (!namesBy || ranking.toName.length === 0) return ranking.finish();
  let vectors: Float32Array[];
  try {
    vectors = await namesBy.embedder.embed(ranking.toName.map(unitNames), "document");
  } catch (err) {
    namesBy.onFailed?.(err);
    return ranking.finish();
  }
  return ranking.finish(new Map(ranking.toName.map((record, i) => [record.id, dot(namesBy.queryVector, vectors[i])])));
}

/** Nearest chunks by the store's own vector search (an index that keeps no vector codes: older ones, other stores). */
function searchVectors(vector: Float32Array, k: number, input: HybridInput): Promise<ScoredId[]> {
  return Promise.resolve(input.store).then((store) => store.searchVector(vector, k, input.filter));
}

/** The records of these hits, read by place where the hits know their rows. */
function readRecords(store: HybridInput["store"], hits: ScoredId[]): Promise<ChunkRecord[]> {
  const rows = hits.some((h) => h.row !== undefined) ? hits.map((h) => h.row ?? -1) : undefined;
  return Promise.resolve(store).then((s) => s.getByIds(hits.map((h) => h.id), rows));
}

/** The files of all hits, or null when a hit does not name its file (a store's own vector search). */
function filesOf(...lists: ScoredId[][]): string[] | null {
  const files: string[] = [];
  for (const list of lists) {
    for (const hit of list) {
      if (hit.filePath === undefined) return null;
      files.push(hit.filePath);
    }
  }
  return files;
}

/** Two chunks of one file whose line ranges overlap show the same code twice: keep the better. */
function overlapsKept(kept: Map<string, ChunkRecord[]>, record: ChunkRecord): boolean {
  let list = kept.get(record.filePath);
  if (!list) kept.set(record.filePath, (list = []));
  for (const k of list) if (record.startLine <= k.endLine && k.startLine <= record.endLine) return true;
  list.push(record);
  return false;
}

function checkArgs(input: HybridInput): void {
  if (!Number.isInteger(input.topK) || input.topK < 0) throw new Error(`topK must be a whole number >= 0, got ${input.topK}`);
  if (!(input.minScore >= 0 && input.minScore <= 1)) throw new Error(`minScore must be between 0 and 1, got ${input.minScore}`);
  if (!["hybrid", "keyword", "vector"].includes(input.mode)) {
    throw new Error(`retrieval mode must be 'hybrid', 'keyword' or 'vector', got ${JSON.stringify(input.mode)}`);
  }
}

function clamp01(x: number): number {
  return x > 1 ? 1 : x > 0 ? x : 0;
}
