// Ranking metrics on one query. Chunk-level metrics count a hit when it lies in a relevant
// file and overlaps a relevant line range (or the span names the whole file); file-level
// metrics only look at which distinct files come back, in order.
import type { QueryScores, RelevantSpan, RetrievedSpan } from "./types.js";

/** Whether a retrieved span answers a relevant span: same file and overlapping lines. */
export function spanMatches(hit: RetrievedSpan, relevant: RelevantSpan): boolean {
  if (normalisePath(hit.filePath) !== normalisePath(relevant.filePath)) return false;
  if (relevant.startLine === undefined || relevant.endLine === undefined) return true;
  return hit.startLine <= relevant.endLine && hit.endLine >= relevant.startLine;
}

export function normalisePath(p: string): string {
  return p.replace(/\\/g, "/").replace(/^\.\//, "");
}

/**
 * The strict chunk rule: same file, and the hit covers at least half of the relevant lines, up
 * to 20 of them. Overlap alone also rewards a neighbour that shares one line with the target;
 * this rule asks that the hit shows it.
 */
export function spanCovers(hit: RetrievedSpan, relevant: RelevantSpan): boolean {
  if (normalisePath(hit.filePath) !== normalisePath(relevant.filePath)) return false;
  if (relevant.startLine === undefined || relevant.endLine === undefined) return true;
  const overlap = Math.min(hit.endLine, relevant.endLine) - Math.max(hit.startLine, relevant.startLine) + 1;
  const length = relevant.endLine - relevant.startLine + 1;
  return overlap >= Math.min(Math.ceil(length / 2), 20);
}

/** Share of relevant spans matched by at least one of the first k hits. */
export function recallAtK(results: RetrievedSpan[], relevant: RelevantSpan[], k: number): number {
  if (relevant.length === 0) return 0;
  const top = results.slice(0, k);
  let found = 0;
  for (const r of relevant) if (top.some((h) => spanMatches(h, r))) found++;
  return found / relevant.length;
}

/** 1 / rank of the first hit (within the first k) that matches any relevant span; 0 if none. */
export function reciprocalRankAtK(
  results: RetrievedSpan[],
  relevant: RelevantSpan[],
  k: number,
  matches: (hit: RetrievedSpan, relevant: RelevantSpan) => boolean = spanMatches,
): number {
  const n = Math.min(k, results.length);
  for (let i = 0; i < n; i++) if (relevant.some((r) => matches(results[i], r))) return 1 / (i + 1);
  return 0;
}

/** Distinct files in first-seen order. */
export function rankedFiles(results: RetrievedSpan[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of results) {
    const f = normalisePath(r.filePath);
    if (!seen.has(f)) {
      seen.add(f);
      out.push(f);
    }
  }
  return out;
}

/** Binary-relevance NDCG over the first k distinct files. */
export function fileNdcgAtK(results: RetrievedSpan[], relevant: RelevantSpan[], k: number): number {
  const relevantFiles = new Set(relevant.map((r) => normalisePath(r.filePath)));
  if (relevantFiles.size === 0) return 0;
  const files = rankedFiles(results).slice(0, k);
  let dcg = 0;
  files.forEach((f, i) => {
    if (relevantFiles.has(f)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevantFiles.size); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

export const DEFAULT_RECALL_KS = [1, 5, 10] as const;

export function scoreQuery(
  results: RetrievedSpan[],
  relevant: RelevantSpan[],
  recallKs: readonly number[] = DEFAULT_RECALL_KS,
): QueryScores {
  const recall: Record<number, number> = {};
  for (const k of recallKs) recall[k] = recallAtK(results, relevant, k);
  return {
    recall,
    mrr10: reciprocalRankAtK(results, relevant, 10),
    strictMrr10: reciprocalRankAtK(results, relevant, 10, spanCovers),
    ndcg10: fileNdcgAtK(results, relevant, 10),
  };
}
