import { describe, expect, test } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { assertFold, assertTrainable, heldOutNames, loadPolicy, type TrainingPolicy } from "../../models/ranker/provenance.js";
import { crossValidate, prepare } from "../../models/ranker/train.js";
import type { CollectedRepo } from "../../models/ranker/data.js";
import { DEFAULT_FIT } from "../../models/ranker/fit.js";
import { checkRankerModel, learnedRerank, type RankerModel } from "../../models/ranker/learned-rank.js";
import { RANKER_FEATURES } from "../../models/ranker/ranker-features.js";
import { rankCandidates, type RankCandidate } from "../../core/retrieval/rank.js";
import type { ChunkRecord } from "../../core/types.js";

const HELD_OUT_TEXT = ["# held out", "rxjs", "activesupport (rails)", "medusajs/medusa", "prometheus client_golang", "flask", "click"].join("\n");
const policy: TrainingPolicy = { heldOut: heldOutNames(HELD_OUT_TEXT), devRepos: new Set(["flask", "click", "cobra"]) };

function record(filePath: string, startLine: number, symbol: string, content: string): ChunkRecord {
  return { id: `${filePath}:${startLine}`, filePath, startLine, endLine: startLine + 9, language: "python", kind: "function", symbol, context: `def ${symbol}`, content, contentHash: "h", description: "" };
}

/** A tiny collected repo: the query's answer is `${name}/retry.py`, a sibling shares its words. */
function repo(name: string): CollectedRepo {
  const records = [
    record(`${name}/retry.py`, 1, "schedule_retry", "def schedule_retry(delay):\n    backoff and schedule the next retry"),
    record(`${name}/client.py`, 1, "send", "def send(request):\n    retry the request after a delay"),
    record(`${name}/util.py`, 1, "helper", "def helper():\n    pass"),
  ];
  return {
    repo: name,
    language: "python",
    prefix: "",
    records: Object.fromEntries(records.map((r) => [r.id, r])),
    queries: [
      {
        query: "how are retries scheduled",
        category: "architecture",
        targets: [{ path: `${name}/retry.py`, start: null, end: null }],
        relevantCount: 1,
        keyword: [[records[1].id, 0.9], [records[0].id, 0.7], [records[2].id, 0.1]],
        vector: [[records[0].id, 0.8], [records[1].id, 0.6]],
        engineTop: [],
      },
    ],
  };
}

describe("what the ranker may learn from", () => {
  test("a code base named in HELD_OUT.txt is refused, under any of the names a line gives it", () => {
    expect(() => assertTrainable("rxjs", policy)).toThrow(/held out/);
    expect(() => assertTrainable("rails", policy)).toThrow(/held out/);
    expect(() => assertTrainable("medusa", policy)).toThrow(/held out/);
    expect(() => assertTrainable("client_golang", policy)).toThrow(/held out/);
    expect(() => assertTrainable("some-permissive-lib", policy)).not.toThrow();
  });

  test("a semble-dev repo may train only a model that does not score it", () => {
    expect(() => assertFold(["click", "cobra"], ["flask"], policy)).not.toThrow();
    expect(() => assertFold(["click", "flask"], ["flask"], policy)).toThrow(/only out of fold/);
    expect(() => assertFold(["click", "rxjs"], ["flask"], policy)).toThrow(/held out/);
  });

  test("cross-validation scores every repo with a model whose training repos exclude it", () => {
    const data = prepare([repo("flask"), repo("click"), repo("cobra")], DEFAULT_FIT.depth);
    const cv = crossValidate(data, policy, { ...DEFAULT_FIT, iterations: 5 });
    expect([...cv.folds.keys()].sort()).toEqual(["click", "cobra", "flask"]);
    for (const [scored, trained] of cv.folds) {
      expect(trained).not.toContain(scored);
      expect(trained).toHaveLength(2);
    }
  });

  test("cross-validation refuses data holding a held-out code base", () => {
    const data = prepare([repo("flask"), repo("rxjs")], DEFAULT_FIT.depth);
    expect(() => crossValidate(data, policy, { ...DEFAULT_FIT, iterations: 5 })).toThrow(/rxjs is held out/);
  });

  const shared = join(import.meta.dirname, "..", "..", "..", "shared", "eval");
  test.skipIf(!existsSync(join(shared, "HELD_OUT.txt")))("the real held-out list refuses every held-out project but the 21 dev repos", () => {
    const real = loadPolicy(shared);
    expect(real.devRepos.size).toBe(21);
    for (const name of ["rxjs", "eslint", "networkx", "tokio", "rails", "pydantic", "laravel", "serde"]) expect(() => assertTrainable(name, real)).toThrow();
    for (const name of real.devRepos) expect(() => assertTrainable(name, real)).not.toThrow();
    expect(readFileSync(join(shared, "HELD_OUT.txt"), "utf8")).toContain("semble-dev");
  });
});

describe("the learned re-ranker", () => {
  const n = RANKER_FEATURES.length;
  const zeros = () => new Array<number>(n).fill(0);
  // A model that reads one feature only: the share of the query's words in the path.
  const pathOnly: RankerModel = {
    features: [...RANKER_FEATURES],
    mean: zeros(),
    scale: new Array<number>(n).fill(1),
    weights: { symbol: zeros(), natural: zeros().map((_, j) => (RANKER_FEATURES[j] === "pathTerms" ? 5 : 0)) },
    repeatPenalty: 100,
    depth: 2,
  };
  const candidates = (): RankCandidate[] => {
    const r = repo("x");
    return r.queries[0].keyword.map(([id, s], i) => ({ record: r.records[id], score: s, keywordScore: s, vectorScore: null, keywordRank: i, vectorRank: null }));
  };

  test("re-orders the head of the hand-set ranking by the model and keeps the tail, scores sorted and in [0,1]", () => {
    const hand = rankCandidates("where is the retry scheduled", candidates());
    const out = learnedRerank("where is the retry scheduled", hand, pathOnly);
    expect(out[0].record.filePath).toBe("x/retry.py");
    expect(out.map((c) => c.record.id).sort()).toEqual(hand.map((c) => c.record.id).sort());
    expect(out.slice(2).map((c) => c.record.id)).toEqual(hand.slice(2).map((c) => c.record.id));
    for (let i = 1; i < out.length; i++) expect(out[i].score).toBeLessThanOrEqual(out[i - 1].score);
    expect(out[0].score).toBe(hand[0].score);
  });

  test("is deterministic: the same candidates give the same ranking", () => {
    const a = learnedRerank("retry", rankCandidates("retry", candidates()), pathOnly);
    const b = learnedRerank("retry", rankCandidates("retry", candidates()), pathOnly);
    expect(b).toEqual(a);
  });

  test("refuses a model trained on other features, naming what to do", () => {
    expect(() => checkRankerModel({ ...pathOnly, features: ["keyword"] })).toThrow(/retrain it/);
    expect(() => checkRankerModel(pathOnly)).not.toThrow();
  });
});
