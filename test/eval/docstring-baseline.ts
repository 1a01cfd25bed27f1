// The chunk-level floor of the docstring dev sets: the evaluation kit's plain BM25 over 40-line
// windows (baseline_bm25.py), run on each docstring-stripped corpus and scored with the same
// metrics `opencode-rag eval` prints, the strict rule included. Prints one JSON summary
// (overall, by repo, by whether the query names its symbol) to compare with a suite run.
//
// Usage: node test/eval/docstring-baseline.mjs [--kit DIR] (default ../shared/eval)
//        [--suite FILE] (only the code bases of that suite's docstring sets, from the roots it
//        names: dev-suite.json for the ten small ones, scale-suite.json for the large ones, any
//        suite semble-docstring.mjs writes; default every fetched one)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseQueryFile, runQueries, summarise, type RetrievedSpan } from "../../core/eval/index.js";
import { loadSets, parseEvalArgs } from "../../cli/commands/eval.js";

const argv = process.argv.slice(2);
const at = argv.indexOf("--kit");
const repoRoot = resolve(new URL("../..", import.meta.url).pathname);
const kit = resolve(at >= 0 ? argv[at + 1] : join(repoRoot, "..", "shared", "eval"));
const script = join(kit, "baseline_bm25.py");
if (!existsSync(script)) {
  console.error(`docstring-baseline: no ${script}; pass --kit DIR (the folder holding baseline_bm25.py)`);
  process.exit(2);
}

const here = join(repoRoot, "test", "eval");
const suiteAt = argv.indexOf("--suite");
const suiteSets = suiteAt >= 0 ? loadSets(parseEvalArgs(["--suite", argv[suiteAt + 1]])).filter((s) => s.name === "docstring") : [];
const queries =
  suiteAt >= 0
    ? suiteSets.flatMap((s) => s.queries)
    : parseQueryFile(readFileSync(join(here, "queries", "docstring.jsonl"), "utf8"), "docstring.jsonl").map((q) => ({ ...q, set: "docstring" }));
// A suite names each code base's stripped copy; without one, the fetched corpora's.
const corpusOf = (repo: string): string =>
  suiteSets.find((s) => s.queries.some((q) => q.repo === repo))?.root ?? join(repoRoot, "test", ".cache", "eval", repo, "docstring", "corpus");
const results = new Map<string, RetrievedSpan[]>();
const work = mkdtempSync(join(tmpdir(), "rag-docstring-bm25-"));
try {
  for (const repo of [...new Set(queries.map((q) => q.repo))]) {
    const corpus = corpusOf(repo);
    if (!existsSync(corpus)) throw new Error(`${corpus} is missing: run node test/eval/fetch-corpora.mjs first`);
    const qFile = join(work, `${repo}.jsonl`);
    const out = join(work, `${repo}-results.jsonl`);
    writeFileSync(qFile, queries.filter((q) => q.repo === repo).map((q) => JSON.stringify({ id: q.id, query: q.query })).join("\n") + "\n");
    // The kit indexes every text file under the folder it is given, and the corpus also holds
    // this project's own index and log (`.opencode`, written by eval runs, the queries among
    // them): BM25 gets a copy without it, so the floor does not move with past runs.
    const sources = join(work, repo);
    cpSync(corpus, sources, { recursive: true, filter: (from) => from !== join(corpus, ".opencode") });
    execFileSync("python3", [script, sources, qFile, out, "--topk", "10"], { stdio: ["ignore", "ignore", "inherit"] });
    rmSync(sources, { recursive: true, force: true });
    for (const line of readFileSync(out, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { id: string; results: RetrievedSpan[] };
      results.set(r.id, r.results);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const summary = summarise(await runQueries(queries, async (q) => results.get(q.id) ?? []));
const pick = (s: { count: number; mrr10: number; strictMrr10: number; ndcg10: number }) => ({ n: s.count, mrr10: +s.mrr10.toFixed(4), strictMrr10: +s.strictMrr10.toFixed(4), ndcg10: +s.ndcg10.toFixed(4) });
console.log(
  JSON.stringify(
    {
      overall: pick(summary.overall),
      bySymbolNamed: Object.fromEntries(Object.entries(summary.bySymbolNamed).map(([k, v]) => [k, pick(v)])),
      byRepo: Object.fromEntries(Object.entries(summary.byRepo).map(([k, v]) => [k, pick(v)])),
    },
    null,
    2,
  ),
);
