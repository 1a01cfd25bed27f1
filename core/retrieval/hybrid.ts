// Hybrid retrieval (F11): keyword (BM25) and vector candidates, fused into one score in [0,1],
// ranked, de-duplicated, thresholded. Portable: no Node built-ins. See README.md for the design.
import type { KeywordIndex } from "../keyword/keyword-index.js";
import type { ChunkRecord, ScoredId, SearchFilter, SearchResult, VectorStore } from "../types.js";
import { rankCandidates, type RankCandidate } from "./rank.js";

export type RetrievalMode = "hybrid" | "keyword" | "vector";

export interface HybridInput {
  query: string;
  /** The embedded query; null when no embedding model is available (keyword-only). */
  queryVector: Float32Array | null;
  store: VectorStore;
  keyword: KeywordIndex;
  topK: number;
  minScore: number;
  filter?: SearchFilter;
  mode: RetrievalMode;
  rank: boolean;
  /** The ranking stage used when `rank` is true; rankCandidates() unless replaced (tests, experiments). */
  ranker?: (query: string, candidates: RankCandidate[]) => RankCandidate[];
}

/**
 * Weights of the two sources in the fused score. Vectors carry meaning ("where are embeddings
 * batched"), keywords carry exact identifiers; the keyword share is large enough that a chunk
 * matching both always beats one matching only its nearest neighbour.
 */
export const VECTOR_WEIGHT = 0.6;
export const KEYWORD_WEIGHT = 0.4;
/** Candidates fetched from each source per requested result: room for de-duplication and ranking. */
const OVERFETCH = 4;
const MIN_FETCH = 40;

export async function hybridSearch(input: HybridInput): Promise<SearchResult[]> {
  const { query, queryVector, store, keyword, filter, mode } = input;
  checkArgs(input);
  if (input.topK === 0 || query.trim().length === 0) return [];
  if (mode === "vector" && !queryVector) {
    throw new Error("vector search needs an embedding model, and none is available: use mode 'keyword' or 'hybrid'");
  }
  const fetchK = Math.max(input.topK * OVERFETCH, MIN_FETCH);
  const useKeyword = mode !== "vector";
  const useVector = mode !== "keyword" && queryVector !== null;

  // The vector search starts first: it runs off the JS thread (LanceDB's own threads) while the
  // keyword search, synchronous, runs on it.
  const vectorSearch = useVector ? store.searchVector(queryVector as Float32Array, fetchK, filter) : Promise.resolve([] as ScoredId[]);
  let keywordHits: ScoredId[];
  try {
    keywordHits = useKeyword ? keyword.search(query, fetchK, filter) : [];
  } catch (err) {
    vectorSearch.catch(() => undefined); // no longer awaited: keep its failure from going unhandled
    throw err;
  }
  const vectorHits = await vectorSearch;

  const fused = fuse(keywordHits, vectorHits, useKeyword, useVector, fetchK);
  if (fused.size === 0) return [];
  const records = await store.getByIds([...fused.keys()]);
  let candidates: RankCandidate[] = [];
  for (const record of records) {
    const f = fused.get(record.id);
    // A keyword hit the store no longer holds (an index pass in flight) is skipped.
    if (f) candidates.push({ record, ...f });
  }
  candidates = input.rank ? (input.ranker ?? rankCandidates)(query, candidates) : candidates.sort((a, b) => b.score - a.score);
  // Whatever the ranker did, results leave sorted by their final score.
  if (input.rank) candidates.sort((a, b) => b.score - a.score);

  const results: SearchResult[] = [];
  const kept = new Map<string, ChunkRecord[]>();
  for (const c of candidates) {
    const score = clamp01(c.score);
    if (score < input.minScore) break; // sorted: nothing later can pass
    if (overlapsKept(kept, c.record)) continue;
    results.push({ chunk: c.record, score });
    if (results.length >= input.topK) break;
  }
  return results;
}

type Fused = Omit<RankCandidate, "record">;

/**
 * Weighted score fusion. Both scores are already in [0,1] (cosine; BM25 over the query's
 * weight). A chunk seen by only one source gets the other source's best bound: 0 for
 * keywords (it may share no term at all), and for vectors the lowest similarity fetched when
 * the vector list was full (its own similarity is at most that), else 0.
 */
function fuse(
  keywordHits: ScoredId[],
  vectorHits: ScoredId[],
  useKeyword: boolean,
  useVector: boolean,
  fetchK: number,
): Map<string, Fused> {
  const out = new Map<string, Fused>();
  keywordHits.forEach((hit, rank) => {
    out.set(hit.id, { score: 0, keywordScore: hit.score, vectorScore: null, keywordRank: rank, vectorRank: null });
  });
  vectorHits.forEach((hit, rank) => {
    const f = out.get(hit.id);
    if (f) {
      f.vectorScore = hit.score;
      f.vectorRank = rank;
    } else {
      out.set(hit.id, { score: 0, keywordScore: null, vectorScore: hit.score, keywordRank: null, vectorRank: rank });
    }
  });
  const vectorFloor = vectorHits.length >= fetchK ? vectorHits[vectorHits.length - 1].score : 0;
  for (const f of out.values()) {
    if (useKeyword && useVector) {
      f.score = VECTOR_WEIGHT * (f.vectorScore ?? vectorFloor) + KEYWORD_WEIGHT * (f.keywordScore ?? 0);
    } else {
      f.score = (useVector ? f.vectorScore : f.keywordScore) ?? 0;
    }
  }
  return out;
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
