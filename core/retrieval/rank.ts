// The ranking stage: re-scores fused candidates with code-aware signals before de-duplication.
// Portable. The interface (RankCandidate, rankCandidates) is the stable plug point for a richer
// ranking stack; this first version only rewards an exact symbol-name match.
import type { ChunkRecord } from "../types.js";

export interface RankCandidate {
  record: ChunkRecord;
  /** Fused score in [0,1]. */
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

/** Share of the remaining distance to 1 that an exact symbol match closes. */
const SYMBOL_MATCH_LIFT = 0.3;

const IDENTIFIER = /[\p{L}\p{N}_$]+/gu;

/**
 * Returns the candidates re-scored (scores stay in [0,1]) and sorted best first.
 * A chunk whose symbol the query names exactly (`parseConfig` in "where is parseConfig
 * called") is lifted, because a user naming an identifier almost always wants its definition.
 */
export function rankCandidates(query: string, candidates: RankCandidate[]): RankCandidate[] {
  const named = new Set<string>();
  for (const m of query.matchAll(IDENTIFIER)) if (m[0].length >= 3) named.add(m[0].toLowerCase());
  const out = candidates.map((c) => {
    const symbol = c.record.symbol.toLowerCase();
    if (symbol.length > 0 && named.has(symbol)) return { ...c, score: c.score + (1 - c.score) * SYMBOL_MATCH_LIFT };
    return c;
  });
  return out.sort((a, b) => b.score - a.score);
}
