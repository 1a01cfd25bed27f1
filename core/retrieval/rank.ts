// The ranking stage: re-scores fused candidates with code-aware signals before de-duplication.
// Portable. Steps (see README.md): analyse the query, lift each candidate by weighted
// features (a statement also by the meaning of the best candidates' names, which the caller
// embeds between `startRanking` and `finish`), lift chunks of files with several good chunks,
// demote tests / generated / vendored code unless asked for, then decay repeated chunks of one
// file so one file cannot fill the top 10. Scores stay in [0,1] and the output is sorted best first.
import { CALLABLE_KINDS, type ChunkRecord } from "../types.js";
import { DEFAULT_CONFIG, type RagConfig } from "../config/defaults.js";
import { analyseQuery, type QueryAnalysis } from "./query-analysis.js";
import { orderingScores, type FusedScores } from "./fusion.js";
import { classifyPath, type PathClass, type PathHints } from "../path-class.js";
import {
  definesIdentifier,
  exactSymbolMatch,
  fileNameCoverage,
  isData,
  isProse,
  isShortChunk,
  kindPrior,
  onlyReferencesIdentifier,
  pathTermCoverage,
  PARENT_FOLDER_SHARE,
  queryTermCoverage,
  reExportsIdentifier,
  symbolTermCoverage,
} from "./features.js";

/** A fused candidate (fusion.ts) with its chunk. */
export interface RankCandidate extends FusedScores {
  record: ChunkRecord;
}

/**
 * The switchable parts of the stack (config `retrieval.rankFeatures`, ablations):
 * fusion (re-fuse keyword and vector scores normalised per query), symbolMatch (the query
 * names the chunk's symbol), symbolTerms (the query's words make up the symbol name),
 * termCoverage (the chunk contains every content word of the query), pathMatch (query words in
 * file or directory names, and a natural question's words naming the file), definitions
 * (declarations over references of a named identifier), chunkKind (declarations over loose code
 * over data and prose), fileAggregation (files with several matching chunks go up), fileMatch (files
 * whose whole text matches the query's words go up: file-level BM25, whatever the number of
 * chunks), nameSimilarity (a statement's meaning close to a chunk's names and signatures: the
 * caller embeds them, see `startRanking`), diversity (repeated chunks of one file decay),
 * demoteNonSource (tests, generated and vendored code go down unless asked).
 */
export type RankFeatureFlags = RagConfig["retrieval"]["rankFeatures"];

/** All on; the single source of the defaults is the config (core/config/defaults.ts). */
export const DEFAULT_RANK_FEATURES: Readonly<RankFeatureFlags> = Object.freeze({ ...DEFAULT_CONFIG.retrieval.rankFeatures });

/**
 * Weights calibrated on the dev benchmarks (test/eval, see docs/retrieval.md). A lift adds
 * weight × feature (each feature in [0,1]) to the fused score; multipliers scale it.
 */
export const RANK_WEIGHTS: Readonly<RankWeights> = Object.freeze({
  /** Share of the per-query scaled vector score in the ordering base (fusion.ts; keyword: the rest). */
  vectorShare: 0.5,
  /**
   * Above this many chunks in the index, the vectors' share falls by `vectorShareFall` for each
   * doubling, to no less than `vectorShareFloor` (`vectorShareFor`): the more chunks, the more
   * of them sit near any query by chance, while BM25's rare words only get rarer.
   */
  largeIndexChunks: 2000,
  vectorShareFall: 0.3,
  vectorShareFloor: 0.2,
  /** Lift for an exact symbol match (on top of `definition`, which an exact match also earns). */
  symbolMatch: 0.2,
  /** Lift for full coverage of the symbol's words by the query. */
  symbolTerms: 0.3,
  /** Lift for a chunk containing every content word of the query. */
  termCoverage: 0.1,
  /** Lift for all query words in the path (file name and its own folder full, folders above a quarter). */
  pathMatch: 1.0,
  /** Share of a full path match for a query word naming the file's own folder (other folders: a quarter). */
  parentFolder: PARENT_FOLDER_SHARE,
  /** Lift for a file name made of the query's words (however many other words the query has), less for a big file. */
  fileName: 0.3,
  /** Lift for declaring a named identifier. */
  definition: 0.5,
  /**
   * The same lift when the query is a statement (`isStatement`) that does not open with the
   * name. A statement describes some code, and the identifiers it names are often what that
   * code extends, takes or returns ("Extend django.test.LiveServerTestCase to …"); a question,
   * a symbol query or a statement with the name as its subject ("ExecuteC executes the
   * command", as Go's doc comments go) names what it is about.
   */
  statementDefinition: 0.3,
  /** Multiplier on a chunk that only references a named identifier in a symbol query. */
  referencePenalty: 0.8,
  /** Lift for declarations (kind prior 1) vs loose code (0.5) vs data (0.25) vs prose (0). */
  chunkKind: 0.2,
  /** Multiplier on chunks of a few lines (they hold little, yet match a name as well as the whole unit). */
  shortChunk: 0.8,
  /** Multiplier on prose (Markdown sections...) unless the query asks for documentation. */
  prose: 0.7,
  /**
   * Multiplier on data (JSON keys, YAML and TOML entries, XML elements, CSS rules): a command's
   * JSON descriptor or a linter's YAML entry for a rule restates the code's names and summary
   * without its behaviour, and matches a question's words as well as the code does.
   */
  data: 0.8,
  /** Lift for the chunk's file by its aggregated evidence (relative to the best file). */
  fileAggregation: 0.5,
  /** How much each later chunk of a file counts towards the file's evidence. */
  fileAggregationDecay: 0.75,
  /** Lift for the chunk's file by how well the whole file matches the query's words (file-level BM25, relative to the best file). */
  fileMatch: 0.3,
  /** Multiplier per earlier chunk of the same file already ranked above. */
  diversity: 0.9,
  /** Share of its file's lifts (path, file evidence) a further chunk of an already ranked file keeps. */
  repeatFileLift: 0.5,
  /**
   * A statement (not a question) of at least this many words describes one unit ("Return the
   * number of dimensions of this coordinate sequence, two or three"): its own text must answer,
   * so summed file evidence is off for it and `descriptionTermCoverage` replaces `termCoverage`.
   */
  descriptionWords: 10,
  /** Lift for a chunk containing every content word of a unit's description. */
  descriptionTermCoverage: 0.2,
  /**
   * Lift for a statement by the cosine of its vector to the chunk's names (its symbols and
   * signatures, `unitNames`), min-max over the candidates compared (`Ranking.toName`).
   */
  nameSimilarity: 0.15,
  /** Multipliers by path class when the query does not ask for tests. */
  demote: { test: 0.4, generated: 0.6, vendored: 0.6, example: 0.5, source: 1 },
});

export interface RankWeights {
  vectorShare: number;
  largeIndexChunks: number;
  vectorShareFall: number;
  vectorShareFloor: number;
  symbolMatch: number;
  symbolTerms: number;
  termCoverage: number;
  pathMatch: number;
  parentFolder: number;
  fileName: number;
  definition: number;
  statementDefinition: number;
  referencePenalty: number;
  chunkKind: number;
  shortChunk: number;
  prose: number;
  data: number;
  fileAggregation: number;
  fileAggregationDecay: number;
  fileMatch: number;
  diversity: number;
  repeatFileLift: number;
  descriptionWords: number;
  descriptionTermCoverage: number;
  nameSimilarity: number;
  demote: Record<PathClass, number>;
}

/** `PathHints`: an example folder the project publishes is not demoted, a file marked as generated is. */
export interface RankOptions extends PathHints {
  /** Switch parts off (missing keys stay on). */
  features?: Partial<RankFeatureFlags>;
  /** File-level BM25 of the candidates' files (KeywordIndex.fileScores), for `fileMatch`. */
  fileScores?: ReadonlyMap<string, number>;
  /** Each candidate file's chunks over the index's mean file (KeywordIndex.fileSizes), for `fileName`. */
  fileSizes?: ReadonlyMap<string, number>;
  /** Other weights than the calibrated ones (calibration runs only). */
  weights?: Partial<RankWeights>;
  /** Chunks in the whole index, for the vectors' share (`vectorShareFor`); none: `vectorShare` as it is. */
  indexChunks?: number;
}

/** Candidates whose every word is read for `termCoverage`, best first by the other features. */
const TERM_COVERAGE_CANDIDATES = 50;

/**
 * Candidates whose names are compared with a statement (`nameSimilarity`), best first by their
 * own and path evidence: the ones a lift of at most 0.15 can still bring to the top, and few
 * enough to embed in well under a millisecond.
 */
export const NAMED_CANDIDATES = 20;

/**
 * The vectors' share of the ordering base in an index of `chunks` chunks: `vectorShare` up to
 * `largeIndexChunks`, then `vectorShareFall` less per doubling, down to `vectorShareFloor`.
 * On the large dev code bases (3,500–7,200 chunks) the keyword side is the surer one at both
 * levels; semble-dev's repositories but redis (all under 1,400 chunks) keep 0.5.
 */
export function vectorShareFor(w: Pick<RankWeights, "vectorShare" | "largeIndexChunks" | "vectorShareFall" | "vectorShareFloor">, chunks: number | undefined): number {
  if (!chunks || chunks <= w.largeIndexChunks) return w.vectorShare;
  const fallen = w.vectorShare - w.vectorShareFall * Math.log2(chunks / w.largeIndexChunks);
  return Math.max(Math.min(w.vectorShareFloor, w.vectorShare), fallen);
}

/** Score of one candidate from its own features (no file-level or list-level effects yet); `declares`: see `declarations`. */
function ownLift(q: QueryAnalysis, c: RankCandidate, f: RankFeatureFlags, w: RankWeights, declares: boolean): number {
  const r = c.record;
  let lift = 0;
  if (f.symbolMatch) lift += w.symbolMatch * exactSymbolMatch(q, r);
  if (f.symbolTerms) lift += w.symbolTerms * symbolTermCoverage(q, r);
  if (f.definitions && declares) lift += isStatement(q) && !q.opensWithName ? w.statementDefinition : w.definition;
  if (f.chunkKind) lift += w.chunkKind * kindPrior(r);
  return lift;
}

/**
 * Which candidates declare an identifier the query names. When none does, the name is
 * declared outside the index (axum's `FromRequest` lives in the sibling crate `axum-core`), and
 * the modules re-exporting it declare it here.
 */
function declarations(q: QueryAnalysis, candidates: readonly RankCandidate[]): boolean[] {
  if (q.identifiers.length === 0) return candidates.map(() => false);
  const declares = candidates.map((c) => definesIdentifier(q, c.record) === 1);
  return declares.some(Boolean) ? declares : candidates.map((c) => reExportsIdentifier(q, c.record));
}

/**
 * A natural question's words naming the chunk's file (`configuration.zig` for "how is the
 * configuration loaded and validated"): the small file named after the concept over the big
 * central files that mention it throughout. The bigger the file against the index's mean, the
 * less the name says (halved at twice the mean, a third at four times). A symbol query has name
 * lifts of its own.
 */
function nameLift(q: QueryAnalysis, record: ChunkRecord, w: RankWeights, fileSizes: ReadonlyMap<string, number> | undefined): number {
  if (q.kind === "symbol" || w.fileName === 0) return 0;
  const coverage = fileNameCoverage(q, record);
  if (coverage === 0) return 0;
  const size = fileSizes?.get(record.filePath) ?? 1;
  return (w.fileName * coverage) / (1 + Math.max(0, Math.log2(size)));
}

/** Per file: best score plus decaying shares of the next ones, relative to the best file. */
function fileEvidence(scored: Array<{ c: RankCandidate; s: number }>, decay: number): Map<string, number> {
  const byFile = new Map<string, number[]>();
  for (const x of scored) {
    const list = byFile.get(x.c.record.filePath) ?? [];
    list.push(x.s);
    byFile.set(x.c.record.filePath, list);
  }
  const raw = new Map<string, number>();
  let best = 0;
  for (const [file, scores] of byFile) {
    scores.sort((a, b) => b - a);
    let total = 0;
    let share = 1;
    for (const s of scores) {
      total += share * s;
      share *= decay;
    }
    raw.set(file, total);
    if (total > best) best = total;
  }
  if (best > 0) for (const [file, v] of raw) raw.set(file, v / best);
  return raw;
}

/**
 * A statement in words (not a question, not a symbol) says what some code does ("parse the
 * retry header into seconds"): a unit whose names say the same by other words answers it.
 * A question asks about a topic, which central files answer better than any one name.
 */
export function isStatement(q: QueryAnalysis): boolean {
  return q.kind === "natural" && !q.asksQuestion;
}

/**
 * A statement of `minWords` words or more describes one unit: that unit's own text answers it,
 * and a file touching many of its words across many chunks is no better for it (summed
 * evidence favours big files). Questions ask about a topic, whatever their length.
 */
export function describesOneUnit(q: QueryAnalysis, minWords: number = RANK_WEIGHTS.descriptionWords): boolean {
  return isStatement(q) && q.wordCount >= minWords;
}

interface Scored {
  c: RankCandidate;
  /** Index in the incoming list: ties keep it. */
  i: number;
  /** It declares an identifier the query names (`declarations`). */
  declares: boolean;
  /** What the chunk earns itself. */
  own: number;
  /** What its file earns (path words, evidence of several chunks), shared by every chunk of the file. */
  fileLift: number;
  /** Product of the multipliers. */
  m: number;
  s: number;
}

/** The first scores: the fused base, the chunk's own features and its path's lifts. */
function firstScores(q: QueryAnalysis, candidates: RankCandidate[], f: RankFeatureFlags, w: RankWeights, options: RankOptions): Scored[] {
  const base = f.fusion ? orderingScores(candidates, vectorShareFor(w, options.indexChunks)) : candidates.map((c) => c.score);
  // The path's lifts depend on the file alone: worked out once per file, not per chunk.
  const pathLifts = new Map<string, number>();
  const pathLiftOf = (record: ChunkRecord): number => {
    let lift = pathLifts.get(record.filePath);
    if (lift === undefined) {
      lift = w.pathMatch * pathTermCoverage(q, record, w.parentFolder) + nameLift(q, record, w, options.fileSizes);
      pathLifts.set(record.filePath, lift);
    }
    return lift;
  };
  const declares = f.definitions ? declarations(q, candidates) : candidates.map(() => false);
  return candidates.map((c, i) => {
    const pathLift = f.pathMatch ? pathLiftOf(c.record) : 0;
    return { c, i, declares: declares[i], own: base[i] + ownLift(q, c, f, w, declares[i]), fileLift: pathLift, m: 1, s: 0 };
  });
}

const byFirstScore = (a: Scored, b: Scored) => b.own + b.fileLift - (a.own + a.fileLift);

/** Lifts the compared chunks by their names' cosine to the query, min-max over them (cosines crowd in a narrow band). */
function liftByNames(scored: Scored[], nameScores: ReadonlyMap<string, number>, weight: number): void {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of scored) {
    const v = nameScores.get(x.c.record.id);
    if (v === undefined) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (!(hi > lo)) return;
  for (const x of scored) {
    const v = nameScores.get(x.c.record.id);
    if (v !== undefined) x.own += (weight * (v - lo)) / (hi - lo);
  }
}

/** A ranking under way: the first scores are worked out, the names to compare are known. */
export interface Ranking {
  /**
   * The chunks whose names a statement is compared with by meaning (`nameSimilarity`): the
   * best `NAMED_CANDIDATES` by their own and path evidence; none for a question or a symbol
   * query, or with the feature off. The caller embeds their `unitNames` (ranking itself stays
   * synchronous and model-free).
   */
  readonly toName: readonly ChunkRecord[];
  /**
   * The candidates re-scored (scores stay in [0,1]) and sorted best first, given the cosine of
   * the query's vector to the names of `toName`'s chunks by chunk id (none: no lift). Call it
   * once: it re-scores in place.
   */
  finish(nameScores?: ReadonlyMap<string, number>): RankCandidate[];
}

/** Starts ranking: what `rankCandidates` does, with the names' cosines handed in between. */
export function startRanking(query: string, candidates: RankCandidate[], options: RankOptions = {}): Ranking {
  if (candidates.length === 0) return { toName: [], finish: () => [] };
  const f: RankFeatureFlags = { ...DEFAULT_RANK_FEATURES, ...options.features };
  const q = analyseQuery(query);
  const w: RankWeights = { ...RANK_WEIGHTS, ...options.weights };
  const scored = firstScores(q, candidates, f, w, options);
  const comparesNames = f.nameSimilarity && w.nameSimilarity > 0 && isStatement(q);
  const toName = comparesNames ? [...scored].sort(byFirstScore).slice(0, NAMED_CANDIDATES).map((x) => x.c.record) : [];
  return {
    toName,
    finish(nameScores) {
      if (comparesNames && nameScores) liftByNames(scored, nameScores, w.nameSimilarity);
      return finishRanking(q, candidates, scored, f, w, options);
    },
  };
}

/**
 * Returns the candidates re-scored (scores stay in [0,1]) and sorted best first, without the
 * names' lift (`startRanking` takes it). Deterministic: ties keep the incoming order.
 */
export function rankCandidates(query: string, candidates: RankCandidate[], options: RankOptions = {}): RankCandidate[] {
  return startRanking(query, candidates, options).finish();
}

/** Everything after the first scores: coverage, file lifts, multipliers, diversity, the rescale. */
function finishRanking(q: QueryAnalysis, candidates: RankCandidate[], first: Scored[], f: RankFeatureFlags, w: RankWeights, options: RankOptions): RankCandidate[] {
  const describesUnit = describesOneUnit(q, w.descriptionWords);
  const coverageWeight = describesUnit ? w.descriptionTermCoverage : w.termCoverage;
  let scored = first;
  if (f.termCoverage && coverageWeight > 0) {
    // Reading every word of a chunk is the costliest feature: only the candidates that can
    // still reach the top get it (a lift of at most `termCoverage` cannot climb further).
    const top = [...scored].sort(byFirstScore).slice(0, TERM_COVERAGE_CANDIDATES);
    for (const x of top) x.own += coverageWeight * queryTermCoverage(q, x.c.record);
  }
  if (f.fileMatch && options.fileScores && w.fileMatch > 0) {
    let best = 0;
    for (const v of options.fileScores.values()) best = Math.max(best, v);
    if (best > 0) for (const x of scored) x.fileLift += (w.fileMatch * (options.fileScores.get(x.c.record.filePath) ?? 0)) / best;
  }
  if (f.fileAggregation && !describesUnit) {
    const evidence = fileEvidence(scored.map((x) => ({ c: x.c, s: x.own + x.fileLift })), w.fileAggregationDecay);
    scored = scored.map((x) => ({ ...x, fileLift: x.fileLift + w.fileAggregation * (evidence.get(x.c.record.filePath) ?? 0) }));
  }
  scored = scored.map((x) => {
    let m = 1;
    if (f.definitions && q.kind === "symbol" && onlyReferencesIdentifier(q, x.c.record, x.declares)) m *= w.referencePenalty;
    if (f.demoteNonSource && !q.wantsTests) m *= w.demote[classifyPath(x.c.record.filePath, options)];
    if (f.chunkKind) {
      if (isShortChunk(x.c.record) && !CALLABLE_KINDS.has(x.c.record.kind)) m *= w.shortChunk;
      if (!q.wantsDocs && isProse(x.c.record)) m *= w.prose;
      if (isData(x.c.record)) m *= w.data;
    }
    return { ...x, m, s: (x.own + x.fileLift) * m };
  });
  scored.sort((a, b) => b.s - a.s || a.i - b.i);

  if (f.diversity) {
    const seen = new Map<string, number>();
    scored = scored.map((x) => {
      const n = seen.get(x.c.record.filePath) ?? 0;
      seen.set(x.c.record.filePath, n + 1);
      // The file's lifts brought its first chunk up; a further chunk keeps its own score and
      // only part of them, so other files' best chunks come before a file's second best.
      return n === 0 ? x : { ...x, s: (x.own + w.repeatFileLift * x.fileLift) * x.m * Math.pow(w.diversity, n) };
    });
    scored.sort((a, b) => b.s - a.s || a.i - b.i);
  }
  // Lifts only order the list; scores keep the scale of the fused scores (the best result keeps
  // the best fused score) so that minScore thresholds mean the same with ranking on or off.
  const bestBase = Math.max(...candidates.map((c) => c.score));
  const bestRanked = scored[0].s;
  const factor = bestRanked > 0 ? bestBase / bestRanked : 0;
  return scored.map((x) => ({ ...x.c, score: Math.min(1, Math.max(0, x.s * factor)) }));
}
