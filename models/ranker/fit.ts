// Fitting the linear ranker (models/ranker/learned-rank.ts) on feature rows: standardise,
// then minimise each query's softmax loss (−log of the probability mass on chunks of relevant
// files) with Adam, full batch, from zero weights: deterministic for the same data.
// Weights: shared + a per-kind delta (symbol / natural), the deltas regularised harder so
// that the few symbol queries move their weights only where the evidence is consistent.
import { RANKER_FEATURES } from "./ranker-features.js";
import type { RankerModel } from "./learned-rank.js";

export interface TrainingQuery {
  kind: "symbol" | "natural";
  rows: Float64Array[];
  /** 1 for a chunk of a relevant file, else 0. */
  labels: Uint8Array;
}

export interface FitOptions {
  l2: number;
  /** L2 on the per-kind deltas, as a multiple of `l2`. */
  deltaL2Factor: number;
  iterations: number;
  learningRate: number;
  repeatPenalty: number;
  /** Candidates of the hand-set ranking the model re-orders (and is trained on). */
  depth: number;
}

export const DEFAULT_FIT: FitOptions = { l2: 0.1, deltaL2Factor: 10, iterations: 200, learningRate: 0.05, repeatPenalty: 1, depth: 40 };

export function fitRanker(queries: readonly TrainingQuery[], opts: FitOptions = DEFAULT_FIT): RankerModel {
  const n = RANKER_FEATURES.length;
  const usable = queries.filter((q) => q.labels.some((l) => l === 1) && q.labels.some((l) => l === 0));
  // Standardisation from the training rows, so that one L2 strength suits every feature.
  const mean = new Array<number>(n).fill(0);
  const sq = new Array<number>(n).fill(0);
  let count = 0;
  for (const q of usable) {
    for (const x of q.rows) {
      count++;
      for (let j = 0; j < n; j++) {
        mean[j] += x[j];
        sq[j] += x[j] * x[j];
      }
    }
  }
  for (let j = 0; j < n; j++) mean[j] /= Math.max(1, count);
  const scale = sq.map((s, j) => {
    const v = s / Math.max(1, count) - mean[j] * mean[j];
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  const z = usable.map((q) => q.rows.map((x) => Float64Array.from(x, (v, j) => (v - mean[j]) / scale[j])));

  // Parameters: [shared | symbol delta | natural delta].
  const theta = new Float64Array(3 * n);
  const m = new Float64Array(3 * n);
  const v = new Float64Array(3 * n);
  const grad = new Float64Array(3 * n);
  const b1 = 0.9;
  const b2 = 0.999;
  for (let it = 1; it <= opts.iterations; it++) {
    grad.fill(0);
    usable.forEach((q, qi) => {
      const off = q.kind === "symbol" ? n : 2 * n;
      const rows = z[qi];
      const s = rows.map((x) => {
        let t = 0;
        for (let j = 0; j < n; j++) t += (theta[j] + theta[off + j]) * x[j];
        return t;
      });
      const max = Math.max(...s);
      let all = 0;
      let pos = 0;
      const e = s.map((t) => Math.exp(t - max));
      e.forEach((x, i) => {
        all += x;
        if (q.labels[i]) pos += x;
      });
      rows.forEach((x, i) => {
        // d(loss)/d(logit i) = p_all(i) − p_pos(i)
        const g = (e[i] / all - (q.labels[i] ? e[i] / pos : 0)) / usable.length;
        if (g === 0) return;
        for (let j = 0; j < n; j++) {
          grad[j] += g * x[j];
          grad[off + j] += g * x[j];
        }
      });
    });
    for (let j = 0; j < 3 * n; j++) {
      const l2 = j < n ? opts.l2 : opts.l2 * opts.deltaL2Factor;
      const g = grad[j] + 2 * l2 * theta[j];
      m[j] = b1 * m[j] + (1 - b1) * g;
      v[j] = b2 * v[j] + (1 - b2) * g * g;
      const mh = m[j] / (1 - Math.pow(b1, it));
      const vh = v[j] / (1 - Math.pow(b2, it));
      theta[j] -= (opts.learningRate * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    features: [...RANKER_FEATURES],
    mean: mean.map(round),
    scale: scale.map(round),
    weights: {
      symbol: Array.from({ length: n }, (_, j) => round(theta[j] + theta[n + j])),
      natural: Array.from({ length: n }, (_, j) => round(theta[j] + theta[2 * n + j])),
    },
    repeatPenalty: opts.repeatPenalty,
    depth: opts.depth,
  };
}
