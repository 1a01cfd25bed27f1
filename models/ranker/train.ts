// Step 2 of the ranker pipeline: leave-one-repo-out cross-validation of the learned ranker on
// the collected semble-dev candidates, beside the hand-set ranking (the current default),
// keyword-only and vectors-only replayed from the same candidates; then, with --write, the
// model fitted on all 21 repos, saved with its provenance and its out-of-fold scores. Every
// semble-dev number this prints for the learned ranker is out of fold: the model that ranks a
// repo's queries never saw that repo (assertFold refuses any other split).
import { writeFileSync } from "node:fs";
import { analyseQuery } from "../../core/retrieval/query-analysis.js";
import { rankCandidates, type RankCandidate } from "../../core/retrieval/rank.js";
import { rankerFeatureRows } from "./ranker-features.js";
import { learnedRerank, orderByLogit, scoreRows, type RankerModel } from "./learned-rank.js";
import { candidatesOf, hitsTarget, ndcgAt10, topTen, type CollectedQuery, type CollectedRepo, type Mode } from "./data.js";
import { DEFAULT_FIT, fitRanker, type FitOptions, type TrainingQuery } from "./fit.js";
import { assertFold, type TrainingPolicy } from "./provenance.js";

export interface Prepared {
  repo: CollectedRepo;
  q: CollectedQuery;
  analysis: ReturnType<typeof analyseQuery>;
  /** The ranking stage's input, and the hand-set ranking's head and tail. */
  fused: RankCandidate[];
  candidates: RankCandidate[];
  tail: RankCandidate[];
  training: TrainingQuery;
}

/** learnedRank() on rows computed once (the order only; scores are not needed here). */
function learnedOrder(p: Prepared, model: RankerModel): RankCandidate[] {
  const logits = scoreRows(p.analysis, p.training.rows, model);
  const { order } = orderByLogit(p.candidates.map((c) => c.record.filePath), logits, model.repeatPenalty);
  return [...order.map((i) => p.candidates[i]), ...p.tail];
}

export function prepare(repos: CollectedRepo[], depth: number): Prepared[] {
  const out: Prepared[] = [];
  for (const repo of repos) {
    for (const q of repo.queries) {
      const fused = candidatesOf(repo, q);
      const hand = rankCandidates(q.query, fused);
      // The model sees the head of the hand-set ranking; the tail stays in that order.
      const candidates = hand.slice(0, depth);
      const tail = hand.slice(depth);
      const analysis = analyseQuery(q.query);
      const rows = rankerFeatureRows(analysis, candidates);
      const labels = Uint8Array.from(candidates, (c) => (q.targets.some((t) => hitsTarget(repo, c.record, t)) ? 1 : 0));
      out.push({ repo, q, analysis, fused, candidates, tail, training: { kind: analysis.kind, rows, labels } });
    }
  }
  return out;
}

/** Mean over repos of the per-repo mean, as the kit scores; plus per category and per repo. */
function summarise(scores: Array<{ repo: string; category: string; ndcg: number }>) {
  const repos = [...new Set(scores.map((s) => s.repo))];
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const byRepo = Object.fromEntries(repos.map((r) => [r, mean(scores.filter((s) => s.repo === r).map((s) => s.ndcg))]));
  const categories = [...new Set(scores.map((s) => s.category))].sort();
  const byCategory = Object.fromEntries(
    categories.map((c) => [c, mean(repos.map((r) => scores.filter((s) => s.repo === r && s.category === c)).filter((l) => l.length).map((l) => mean(l.map((s) => s.ndcg))))]),
  );
  return { overall: mean(Object.values(byRepo)), byCategory, byRepo, perQuery: scores.map((s) => s.ndcg) };
}

type Ranker = (p: Prepared) => RankCandidate[];

function score(data: Prepared[], rank: Ranker) {
  return summarise(data.map((p) => ({ repo: p.repo.repo, category: p.q.category, ndcg: ndcgAt10(p.repo, p.q, topTen(rank(p))) })));
}

const handSet =
  (mode: Mode): Ranker =>
  (p) =>
    mode === "hybrid" ? [...p.candidates, ...p.tail] : rankCandidates(p.q.query, candidatesOf(p.repo, p.q, mode));

/** Repeat penalty picked on the training repos only (in-sample to the fold, never the scored repo). */
const PENALTIES = [0.5, 1, 2, 4, 8, 100];

function fitFold(train: Prepared[], opts: FitOptions): RankerModel {
  const base = fitRanker(
    train.map((p) => p.training),
    opts,
  );
  let best = base;
  let bestScore = -1;
  for (const repeatPenalty of PENALTIES) {
    const m = { ...base, repeatPenalty };
    const s = score(train, (p) => learnedOrder(p, m)).overall;
    if (s > bestScore + 1e-9) {
      bestScore = s;
      best = m;
    }
  }
  return best;
}

export interface CrossValidation {
  outOfFold: ReturnType<typeof score>;
  models: Map<string, RankerModel>;
  /** The repos each scored repo's model was trained on. */
  folds: Map<string, string[]>;
}

/** Leave one repo out: each repo ranked by a model fitted on the other twenty. */
export function crossValidate(data: Prepared[], policy: TrainingPolicy, opts: FitOptions = DEFAULT_FIT): CrossValidation {
  const repos = [...new Set(data.map((p) => p.repo.repo))];
  const models = new Map<string, RankerModel>();
  const folds = new Map<string, string[]>();
  const scores: Array<{ repo: string; category: string; ndcg: number }> = [];
  for (const held of repos) {
    const train = data.filter((p) => p.repo.repo !== held);
    const trainRepos = [...new Set(train.map((p) => p.repo.repo))];
    assertFold(trainRepos, [held], policy);
    folds.set(held, trainRepos);
    const model = fitFold(train, opts);
    models.set(held, model);
    for (const p of data.filter((x) => x.repo.repo === held)) {
      scores.push({ repo: held, category: p.q.category, ndcg: ndcgAt10(p.repo, p.q, topTen(learnedOrder(p, model))) });
    }
  }
  return { outOfFold: summarise(scores), models, folds };
}

function table(columns: Array<[string, ReturnType<typeof score>]>): string {
  const f = (x: number) => x.toFixed(3);
  const lines = [`| | ${columns.map(([n]) => n).join(" | ")} |`, `|---|${columns.map(() => "---:").join("|")}|`];
  lines.push(`| **mean of ${Object.keys(columns[0][1].byRepo).length}** | ${columns.map(([, s]) => `**${f(s.overall)}**`).join(" | ")} |`);
  for (const c of Object.keys(columns[0][1].byCategory)) lines.push(`| ${c} | ${columns.map(([, s]) => f(s.byCategory[c])).join(" | ")} |`);
  for (const r of Object.keys(columns[0][1].byRepo)) lines.push(`| ${r} | ${columns.map(([, s]) => f(s.byRepo[r])).join(" | ")} |`);
  return lines.join("\n");
}

export function train(repos: CollectedRepo[], policy: TrainingPolicy, options: { write?: string; fit?: Partial<FitOptions> }): void {
  const t0 = performance.now();
  const opts = { ...DEFAULT_FIT, ...options.fit };
  const data = prepare(repos, opts.depth);
  // The replay must be the engine's ranking: compare with the top 10 the engine returned.
  const same = data.filter((p) => topTen(handSet("hybrid")(p)).map((r) => r.id).join() === p.q.engineTop.join()).length;
  console.log(`replay of the default ranking matches the engine's top 10 on ${same}/${data.length} queries`);
  const keyword = score(data, handSet("keyword"));
  const vector = score(data, handSet("vector"));
  const hybrid = score(data, handSet("hybrid"));
  const cv = crossValidate(data, policy, opts);
  console.log(`fit ${JSON.stringify(opts)}; penalties chosen per fold: ${[...cv.models.values()].map((m) => m.repeatPenalty).join(",")}`);
  console.log(table([["keyword-only", keyword], ["vectors only", vector], ["hybrid, hand-set (default)", hybrid], ["hybrid, learned (out of fold)", cv.outOfFold]]));
  console.log(paired(hybrid, cv.outOfFold));
  console.log(latency(data, cv.models));
  console.log(`cross-validation took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (!options.write) return;
  const all = [...new Set(data.map((p) => p.repo.repo))];
  assertFold(all, [], policy);
  const model = fitFold(data, opts);
  model.provenance = {
    data: `semble-dev kit queries (${data.length} queries, ${all.length} repos: ${all.join(", ")}), candidates of the default index with the bundled model`,
    heldOut: "nothing named in HELD_OUT.txt beyond the semble-dev repos, which that file allows for a ranker out of fold",
    fit: opts,
    outOfFold: { method: "leave one repo out", meanNdcg10: round3(cv.outOfFold.overall), byCategory: mapRound(cv.outOfFold.byCategory) },
    sameCandidatesHandSet: { meanNdcg10: round3(hybrid.overall), byCategory: mapRound(hybrid.byCategory) },
    note: "semble-dev numbers of this model are in-sample; quote the out-of-fold ones",
  };
  writeFileSync(options.write, JSON.stringify(model, null, 1) + "\n");
  console.log(`wrote ${options.write}`);
}

/**
 * How sure a difference is: queries better / worse / equal, and a 95% interval of the mean
 * difference from resampling repos (fixed seed, so the same data prints the same interval).
 */
function paired(before: ReturnType<typeof score>, after: ReturnType<typeof score>): string {
  const d = after.perQuery.map((x, i) => x - before.perQuery[i]);
  const better = d.filter((x) => x > 1e-9).length;
  const worse = d.filter((x) => x < -1e-9).length;
  const repos = Object.keys(before.byRepo);
  const diffs = repos.map((r) => after.byRepo[r] - before.byRepo[r]);
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const means: number[] = [];
  for (let b = 0; b < 2000; b++) {
    let t = 0;
    for (let i = 0; i < diffs.length; i++) t += diffs[Math.floor(rand() * diffs.length)];
    means.push(t / diffs.length);
  }
  means.sort((a, b) => a - b);
  const f = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(4);
  return `learned vs hand-set: ${better} queries better, ${worse} worse, ${d.length - better - worse} equal; mean of repos ${f(after.overall - before.overall)}, 95% interval over repos [${f(means[50])}, ${f(means[1949])}]; worst repo ${f(Math.min(...diffs))}`;
}

/** p50 / p95 per query of the hand-set ranking stage, and of the learned re-ranking on top of it. */
function latency(data: Prepared[], models: Map<string, RankerModel>): string {
  const hand: number[] = [];
  const learned: number[] = [];
  for (const p of data) {
    const t0 = performance.now();
    const ranked = rankCandidates(p.q.query, p.fused);
    const t1 = performance.now();
    learnedRerank(p.q.query, ranked, models.get(p.repo.repo)!);
    learned.push(performance.now() - t1);
    hand.push(t1 - t0);
  }
  const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)].toFixed(2);
  return `ranking stage per query: hand-set p50 ${pct(hand, 0.5)} ms / p95 ${pct(hand, 0.95)} ms; learned re-ranking on top p50 ${pct(learned, 0.5)} ms / p95 ${pct(learned, 0.95)} ms`;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const mapRound = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round3(v)]));
