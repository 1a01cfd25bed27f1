// The learned ranking stage: re-orders the head of the hand-set ranking (rank.ts) with a
// linear scorer over the features of ranker-features.ts, one weight vector per query kind (a
// named symbol and a question weigh evidence differently), trained by models/ranker to put a
// relevant file first (softmax over each query's head). After scoring, each further chunk of
// a file already listed loses `repeatPenalty` per earlier chunk, so the first results name
// different files. Below the head the hand-set order stays. Portable.
import { analyseQuery, type QueryAnalysis } from "../../core/retrieval/query-analysis.js";
import { RANKER_FEATURES, rankerFeatureRows, type FeatureInput } from "./ranker-features.js";

export interface RankerModel {
  /** Column names; must equal RANKER_FEATURES (a model for other features is refused). */
  features: string[];
  /** Standardisation applied before the weights: (x − mean) / scale. */
  mean: number[];
  scale: number[];
  weights: { symbol: number[]; natural: number[] };
  /** Logit subtracted from a chunk per earlier-listed chunk of its file. */
  repeatPenalty: number;
  /** How many of the hand-set ranking's first candidates the model re-orders. */
  depth: number;
  /** Where the weights came from (data, folds, out-of-fold scores); not read by the ranker. */
  provenance?: Record<string, unknown>;
}

/** Throws a one-line error when the model was trained on other features than this code computes. */
export function checkRankerModel(model: RankerModel): void {
  const n = RANKER_FEATURES.length;
  const same = model.features.length === n && model.features.every((f, i) => f === RANKER_FEATURES[i]);
  const sized = [model.mean, model.scale, model.weights.symbol, model.weights.natural].every((v) => v.length === n);
  if (!same || !sized) {
    throw new Error(`ranker model lists features [${model.features.join(", ")}], this build computes [${RANKER_FEATURES.join(", ")}]; retrain it (models/ranker)`);
  }
}

/** The model's logit for each row. */
export function scoreRows(q: QueryAnalysis, rows: readonly Float64Array[], model: RankerModel): number[] {
  const w = q.kind === "symbol" ? model.weights.symbol : model.weights.natural;
  return rows.map((x) => {
    let s = 0;
    for (let j = 0; j < x.length; j++) s += w[j] * ((x[j] - model.mean[j]) / model.scale[j]);
    return s;
  });
}

/**
 * Order of candidates by logit with the repeat penalty: the best chunk of each file keeps its
 * logit, the n-th further one loses n × penalty. Returns indices best first and the adjusted
 * logits. Ties keep the incoming order (deterministic).
 */
export function orderByLogit(filePaths: readonly string[], logits: readonly number[], repeatPenalty: number): { order: number[]; adjusted: number[] } {
  const byLogit = logits.map((_, i) => i).sort((a, b) => logits[b] - logits[a] || a - b);
  const seen = new Map<string, number>();
  const adjusted = new Array<number>(logits.length);
  for (const i of byLogit) {
    const n = seen.get(filePaths[i]) ?? 0;
    seen.set(filePaths[i], n + 1);
    adjusted[i] = logits[i] - n * repeatPenalty;
  }
  const order = logits.map((_, i) => i).sort((a, b) => adjusted[b] - adjusted[a] || a - b);
  return { order, adjusted };
}

/**
 * Re-orders the first `model.depth` candidates of a hand-set ranking (best first, as
 * rankCandidates returns it). Scores stay on the fused scale: the first result keeps the hand
 * ranking's best score and each other one of the head that times exp(its logit − the
 * first's), its odds against the first under the model; the tail keeps its scores, capped by
 * the last of the head so the list stays sorted.
 */
export function learnedRerank<C extends FeatureInput>(query: string, handRanked: C[], model: RankerModel): C[] {
  if (handRanked.length === 0) return [];
  const q = analyseQuery(query);
  const head = handRanked.slice(0, model.depth);
  const logits = scoreRows(q, rankerFeatureRows(q, head), model);
  const { order, adjusted } = orderByLogit(
    head.map((c) => c.record.filePath),
    logits,
    model.repeatPenalty,
  );
  const best = handRanked[0].score;
  const top = adjusted[order[0]];
  const out = order.map((i) => ({ ...head[i], score: Math.min(1, Math.max(0, best * Math.exp(adjusted[i] - top))) }));
  const floor = out[out.length - 1].score;
  for (const c of handRanked.slice(model.depth)) out.push({ ...c, score: Math.min(floor, c.score) });
  return out;
}
