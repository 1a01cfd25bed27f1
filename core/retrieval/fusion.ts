// Fusion: the one place keyword (BM25) and vector candidates meet. Two scores come out of it,
// each with one job:
//  - the *confidence* score, on a fixed scale (cosine and BM25-over-query-weight, both in
//    [0,1], weighted 0.6 / 0.4): what `minScore` and every threshold in the config compare
//    against, and what results report;
//  - the *ordering* base of the ranking stage, normalised per query (keyword over the list's
//    best, vector min-max over the list) and weighted by the calibrated `vectorShare`: raw BM25
//    ranges differ by an order of magnitude between queries and cosine similarities crowd
//    into a narrow band, so only per-query scaling lets one weight fit every query.
// Portable: no Node built-ins.
import type { ScoredId } from "../types.js";

/** Vector and keyword weights of the confidence score (thresholds were set on this scale). */
export const VECTOR_WEIGHT = 0.6;
export const KEYWORD_WEIGHT = 0.4;

/** What fusion knows about one candidate chunk. */
export interface FusedScores {
  /** Confidence score in [0,1]. */
  score: number;
  /** Keyword (BM25) score in [0,1], or null when the keyword path did not return this chunk. */
  keywordScore: number | null;
  /** Cosine score in [0,1], or null when the vector path did not return this chunk. */
  vectorScore: number | null;
  /** 0-based rank in the keyword results, or null. */
  keywordRank: number | null;
  /** 0-based rank in the vector results, or null. */
  vectorRank: number | null;
}

/**
 * Merges the two candidate lists by chunk id, with confidence scores. A chunk seen by only one
 * source gets the other source's best bound: 0 for keywords (it may share no term at all), and
 * for vectors the `vectorK`-th similarity when the vector list was full (its own similarity
 * is at most that: past the `vectorK` nearest, the list holds only some chunks), else 0. With
 * one source in use, its score is the score.
 */
export function fuseCandidates(
  keywordHits: ScoredId[],
  vectorHits: ScoredId[],
  sources: { keyword: boolean; vector: boolean; vectorK: number },
): Map<string, FusedScores> {
  const out = new Map<string, FusedScores>();
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
  const vectorFloor = vectorHits.length >= sources.vectorK && sources.vectorK > 0 ? vectorHits[sources.vectorK - 1].score : 0;
  for (const f of out.values()) {
    if (sources.keyword && sources.vector) {
      f.score = VECTOR_WEIGHT * (f.vectorScore ?? vectorFloor) + KEYWORD_WEIGHT * (f.keywordScore ?? 0);
    } else {
      f.score = (sources.vector ? f.vectorScore : f.keywordScore) ?? 0;
    }
  }
  return out;
}

/**
 * Ordering base of the ranking stage, one value in [0,1] per candidate:
 * `vectorShare · vector' + (1 − vectorShare) · keyword'` with both scaled per query. With a
 * single source present, that source alone; with none, the confidence scores.
 */
export function orderingScores(candidates: readonly FusedScores[], vectorShare: number): number[] {
  const scaled = scaledSourceScores(candidates);
  if (!scaled.hasKeyword && !scaled.hasVector) return candidates.map((c) => c.score);
  const share = scaled.hasKeyword && scaled.hasVector ? vectorShare : scaled.hasVector ? 1 : 0;
  return candidates.map((_, i) => share * scaled.vector[i] + (1 - share) * scaled.keyword[i]);
}

/**
 * Each candidate's keyword and vector score scaled per query to [0,1]: keyword scores by the
 * best, vector scores min-max; 0 where that source did not find the candidate.
 */
export function scaledSourceScores(candidates: readonly FusedScores[]): { keyword: number[]; vector: number[]; hasKeyword: boolean; hasVector: boolean } {
  let kMax = 0;
  let vMin = Infinity;
  let vMax = -Infinity;
  for (const c of candidates) {
    if (c.keywordScore !== null && c.keywordScore > kMax) kMax = c.keywordScore;
    if (c.vectorScore !== null) {
      if (c.vectorScore < vMin) vMin = c.vectorScore;
      if (c.vectorScore > vMax) vMax = c.vectorScore;
    }
  }
  const hasKeyword = kMax > 0;
  const hasVector = vMax > -Infinity;
  const vSpan = vMax - vMin;
  return {
    keyword: candidates.map((c) => (c.keywordScore !== null && hasKeyword ? c.keywordScore / kMax : 0)),
    vector: candidates.map((c) => (c.vectorScore !== null && hasVector ? (vSpan > 0 ? (c.vectorScore - vMin) / vSpan : 1) : 0)),
    hasKeyword,
    hasVector,
  };
}
