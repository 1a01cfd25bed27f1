#!/usr/bin/env node
// Reproduces the tables of docs/retrieval.md in one command (`npm run eval:dev`):
// fetches the dev corpora at their pinned versions, builds the CLI, then runs
// `opencode-rag eval --suite test/eval/dev-suite.json --compare A B --json` for every pair of
// configurations below and prints the markdown tables. The raw JSON of each run is kept in
// test/eval/results/ (named by commit) so every number can be traced to a run.
//
// Usage: node test/eval/reproduce.mjs [--skip-fetch] [--skip-build] [--main-only]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const args = new Set(process.argv.slice(2));

function step(cmd, argv) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, LANCEDB_LOG: "error" } });
  if (r.status !== 0) {
    console.error(`reproduce: ${cmd} ${argv.join(" ")} failed (exit ${r.status})`);
    process.exit(1);
  }
}

function evalPair(a, b) {
  process.stderr.write(`eval: ${a} vs ${b}\n`);
  const r = spawnSync(
    process.execPath,
    [join(root, "dist", "cli.js"), "eval", "--suite", join(here, "dev-suite.json"), "--compare", a, b, "--json"],
    { cwd: root, encoding: "utf8", maxBuffer: 512 * 1024 * 1024, env: { ...process.env, LANCEDB_LOG: "error" } },
  );
  if (r.status !== 0) {
    console.error(r.stderr.trim());
    process.exit(1);
  }
  return JSON.parse(r.stdout).presets;
}

const preset = (name) => join(here, "presets", `${name}.json`);
const FEATURES = [
  "no-fusion",
  "no-symbol-match",
  "no-symbol-terms",
  "no-term-coverage",
  "no-path-match",
  "no-definitions",
  "no-chunk-kind",
  "no-file-aggregation",
  "no-file-match",
  "no-diversity",
  "no-demote-non-source",
];

if (!args.has("--skip-fetch")) step(process.execPath, [join(here, "fetch-corpora.mjs")]);
if (!args.has("--skip-build")) step(process.execPath, [join(root, "esbuild.config.mjs")]);

const runs = [];
for (const [a, b] of [
  ["bm25", "default"],
  ["keyword-only", "vector-raw"],
  ["vector-only", "no-rank"],
]) {
  runs.push(...evalPair(a, b));
  if (args.has("--main-only")) break;
}
if (!args.has("--main-only")) {
  for (let i = 0; i < FEATURES.length; i += 2) {
    const pair = FEATURES.slice(i, i + 2);
    if (pair.length === 1) pair.push("default");
    runs.push(...evalPair(preset(pair[0]), pair[1] === "default" ? "default" : preset(pair[1])));
  }
}

const f3 = (x) => (x === undefined ? "–" : x.toFixed(3));
const byName = new Map(runs.map((r) => [r.name, r.summary]));
const row = (label, s) =>
  `| ${label} | ${f3(s.bySet.natural?.ndcg10)} | ${f3(s.bySet.natural?.mrr10)} | ${f3(s.byCategory.symbol?.ndcg10)} | ${f3(s.bySet.docstring?.mrr10)} | ${f3(s.bySet.docstring?.ndcg10)} | ${s.latency.p50.toFixed(1)} / ${s.latency.p95.toFixed(1)} |`;
const header =
  "| configuration | natural NDCG@10 | natural MRR@10 | symbol NDCG@10 | docstring MRR@10 | docstring NDCG@10 | latency p50 / p95 ms |\n|---|---|---|---|---|---|---|";

const lines = ["### Configurations", "", header];
const labels = {
  bm25: "BM25 (keyword, no ranking)",
  "keyword-only": "BM25 + ranking",
  "vector-raw": "vectors only",
  "vector-only": "vectors + ranking",
  "no-rank": "hybrid, no ranking",
  default: "**hybrid + ranking (default)**",
};
for (const name of ["bm25", "keyword-only", "vector-raw", "vector-only", "no-rank", "default"]) {
  if (byName.has(name)) lines.push(row(labels[name], byName.get(name)));
}
const def = byName.get("default");
if (!args.has("--main-only")) {
  lines.push("", "### Ablation: default with one part of the ranking stage switched off", "", header.replace("configuration", "switched off"));
  for (const name of FEATURES) if (byName.has(name)) lines.push(row(name.replace(/^no-/, ""), byName.get(name)));
}
const bm25 = byName.get("bm25");
lines.push(
  "",
  `Targets: natural NDCG@10 gain over BM25 ${(def.bySet.natural.ndcg10 - bm25.bySet.natural.ndcg10).toFixed(3)} (goal ≥ 0.15); ` +
    `docstring MRR@10 gain ${(def.bySet.docstring.mrr10 - bm25.bySet.docstring.mrr10).toFixed(3)} (goal ≥ 0.10); ` +
    `symbol NDCG@10 ${def.byCategory.symbol.ndcg10.toFixed(3)} (goal ≥ 0.95).`,
);
lines.push("", "### Default configuration by language", "", "| language | n | NDCG@10 | MRR@10 |", "|---|---|---|---|");
for (const [lang, s] of Object.entries(def.byLanguage)) lines.push(`| ${lang} | ${s.count} | ${f3(s.ndcg10)} | ${f3(s.mrr10)} |`);
lines.push("", "### Default configuration by code base", "", "| code base | n | NDCG@10 | MRR@10 | BM25 NDCG@10 |", "|---|---|---|---|---|");
for (const [repo, s] of Object.entries(def.byRepo)) lines.push(`| ${repo} | ${s.count} | ${f3(s.ndcg10)} | ${f3(s.mrr10)} | ${f3(bm25.byRepo[repo]?.ndcg10)} |`);

const table = lines.join("\n");
console.log(table);

let commit = "worktree";
try {
  commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
} catch {
  // not a git checkout: keep the generic name
}
const outDir = join(here, "results");
mkdirSync(outDir, { recursive: true });
const summaries = Object.fromEntries(runs.map((r) => [r.name, { search: r.search, overrides: r.overrides, summary: r.summary }]));
writeFileSync(join(outDir, `dev-${commit}.json`), JSON.stringify({ commit, date: new Date().toISOString(), summaries }, null, 2) + "\n");
writeFileSync(join(outDir, `dev-${commit}.md`), table + "\n");
