// The feature vector the learned ranker (learned-rank.ts) scores: one row per candidate of the
// hand-set ranking (rank.ts), read from the candidate itself, its place in that ranking, its
// file's other candidates and the analysed query. The
// trainer (models/ranker) calls this same function, so training and search see identical
// numbers. Every value is in [0,1]. Portable.
import type { ChunkRecord } from "../../core/types.js";
import type { QueryAnalysis } from "../../core/retrieval/query-analysis.js";
import { scaledSourceScores, type FusedScores } from "../../core/retrieval/fusion.js";
import { classifyPath } from "../../core/path-class.js";
import {
  definesIdentifier,
  exactSymbolMatch,
  isProse,
  isShortChunk,
  kindPrior,
  onlyReferencesIdentifier,
  pathTermCoverage,
  queryTermCoverage,
  symbolTermCoverage,
} from "../../core/retrieval/features.js";

/** Names of the columns, in order: the model file lists them and is refused if they differ. */
export const RANKER_FEATURES = [
  "keyword", // BM25 over the list's best
  "vector", // cosine, min-max over the list
  "keywordSeen", // the keyword search returned the chunk
  "vectorSeen",
  "keywordRank", // 1 / (1 + rank) in the keyword list
  "vectorRank",
  "handScore", // the hand-set ranking's score over its best
  "handRank", // 1 / (1 + place) in the hand-set ranking
  "symbolMatch",
  "symbolTerms",
  "defines",
  "onlyReferences",
  "kindPrior",
  "pathTerms",
  "queryTerms",
  "test",
  "example",
  "generatedOrVendored",
  "shortFragment",
  "prose",
  "depth", // folders from the indexed root, /8
  "size", // log of the line count
  "fileChunks", // how many candidates share the file (log-scaled)
  "fileKeyword", // the file's best keyword value
  "fileVector", // the file's best vector value
  "fileSymbolTerms", // the file's best symbolTerms
  "fileQueryTerms", // the file's best queryTerms
  "bestOfFile", // the chunk is its file's best by keyword + vector
] as const;

export type RankerFeature = (typeof RANKER_FEATURES)[number];

const CALLABLE_KINDS = new Set(["function", "method", "constructor"]);

export interface FeatureInput extends FusedScores {
  record: ChunkRecord;
}

/** One row per candidate of a hand-set ranking (best first), columns as in RANKER_FEATURES. */
export function rankerFeatureRows(q: QueryAnalysis, candidates: readonly FeatureInput[]): Float64Array[] {
  const handBest = candidates.reduce((m, c) => Math.max(m, c.score), 0);
  const scaled = scaledSourceScores(candidates);
  const width = RANKER_FEATURES.length;
  const col = Object.fromEntries(RANKER_FEATURES.map((n, i) => [n, i])) as Record<RankerFeature, number>;
  const rows = candidates.map((c, place) => {
    const r = c.record;
    const x = new Float64Array(width);
    x[col.keyword] = scaled.keyword[place];
    x[col.vector] = scaled.vector[place];
    x[col.keywordSeen] = c.keywordScore !== null ? 1 : 0;
    x[col.vectorSeen] = c.vectorScore !== null ? 1 : 0;
    x[col.keywordRank] = c.keywordRank !== null ? 1 / (1 + c.keywordRank) : 0;
    x[col.vectorRank] = c.vectorRank !== null ? 1 / (1 + c.vectorRank) : 0;
    x[col.handScore] = handBest > 0 ? c.score / handBest : 0;
    x[col.handRank] = 1 / (1 + place);
    x[col.symbolMatch] = exactSymbolMatch(q, r);
    x[col.symbolTerms] = symbolTermCoverage(q, r);
    x[col.defines] = definesIdentifier(q, r);
    x[col.onlyReferences] = q.kind === "symbol" && onlyReferencesIdentifier(q, r, x[col.defines] === 1) ? 1 : 0;
    x[col.kindPrior] = kindPrior(r);
    x[col.pathTerms] = pathTermCoverage(q, r);
    x[col.queryTerms] = queryTermCoverage(q, r);
    const pathClass = q.wantsTests ? "source" : classifyPath(r.filePath);
    x[col.test] = pathClass === "test" ? 1 : 0;
    x[col.example] = pathClass === "example" ? 1 : 0;
    x[col.generatedOrVendored] = pathClass === "generated" || pathClass === "vendored" ? 1 : 0;
    x[col.shortFragment] = isShortChunk(r) && !CALLABLE_KINDS.has(r.kind) ? 1 : 0;
    x[col.prose] = !q.wantsDocs && isProse(r) ? 1 : 0;
    x[col.depth] = Math.min(1, (r.filePath.split("/").length - 1) / 8);
    x[col.size] = Math.min(1, Math.log(r.endLine - r.startLine + 1) / Math.log(1000));
    return x;
  });
  // File-level columns: what the file's other candidates say about it.
  const byFile = new Map<string, number[]>();
  candidates.forEach((c, i) => {
    const list = byFile.get(c.record.filePath);
    if (list) list.push(i);
    else byFile.set(c.record.filePath, [i]);
  });
  for (const members of byFile.values()) {
    let bestK = 0;
    let bestV = 0;
    let bestS = 0;
    let bestQ = 0;
    let best = members[0];
    for (const i of members) {
      const x = rows[i];
      bestK = Math.max(bestK, x[col.keyword]);
      bestV = Math.max(bestV, x[col.vector]);
      bestS = Math.max(bestS, x[col.symbolTerms]);
      bestQ = Math.max(bestQ, x[col.queryTerms]);
      if (x[col.keyword] + x[col.vector] > rows[best][col.keyword] + rows[best][col.vector]) best = i;
    }
    const count = Math.min(1, Math.log2(1 + members.length) / 5);
    for (const i of members) {
      const x = rows[i];
      x[col.fileChunks] = count;
      x[col.fileKeyword] = bestK;
      x[col.fileVector] = bestV;
      x[col.fileSymbolTerms] = bestS;
      x[col.fileQueryTerms] = bestQ;
      x[col.bestOfFile] = i === best ? 1 : 0;
    }
  }
  return rows;
}
