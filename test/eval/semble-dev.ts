// The semble-dev benchmark in the loop (`npm run eval:semble-dev`): lays out the kit's 21
// public repositories at their pinned revisions, indexes each once with the bundled model,
// answers every query in keyword-only, hybrid and vector-only mode from that one index,
// writes RESULTS-<mode>.jsonl in the kit's format and prints NDCG@10 / Recall@10 overall,
// by category, by language and by repo beside the kit's reference numbers.
//
// Options: --kit DIR (default ../shared/eval/semble-dev), --mirrors DIR (bare git mirrors,
// OWNER+NAME/repo; default $MIRROR_ROOT), --out DIR (default test/.cache/semble-dev),
// --repos a,b --modes keyword,hybrid,vector --force (re-index) --json --check (run score.py),
// --overrides JSON (config deep-merged over the default, e.g. a ranking ablation:
// '{"retrieval":{"rankFeatures":{"pathMatch":false}}}'), --whole-checkout (index each checkout
// whole instead of its benchmark root; the kit's score.py, which reads only the root, is not
// comparable then).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openSembleEngine } from "./semble-engine.js";
import { loadTasks, scoreRun, type Mode, type RunResult } from "./semble-score.js";
import { layOutKitRepos, type KitRepoSpec } from "./kit-layout.js";

const argv = process.argv.slice(2);
const opt = (name: string, fallback?: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const flag = (name: string): boolean => argv.includes(`--${name}`);

const repoRoot = resolve(new URL("../..", import.meta.url).pathname);
const kit = resolve(opt("kit", join(repoRoot, "..", "shared", "eval", "semble-dev"))!);
const out = resolve(opt("out", join(repoRoot, "test", ".cache", "semble-dev"))!);
const mirrors = opt("mirrors", process.env.MIRROR_ROOT);
const modes = (opt("modes", "keyword,hybrid,vector")!.split(",") as Mode[]);
const only = opt("repos")?.split(",");

if (!existsSync(join(kit, "repos.json"))) {
  console.error(`eval:semble-dev: no benchmark kit at ${kit}; pass --kit DIR (the folder holding repos.json)`);
  process.exit(2);
}
const specs: KitRepoSpec[] = JSON.parse(readFileSync(join(kit, "repos.json"), "utf8"));
// `--whole-checkout`: each repository indexed whole, as a user opening it would, instead of the
// kit's benchmark root (tests, docs sites, examples and sibling modules compete; own stores).
const wholeCheckout = flag("whole-checkout");
const chosen = specs.filter((s) => !only || only.includes(s.name)).map((s) => (wholeCheckout ? { ...s, benchmark_root: null } : s));

// Lay out the checkouts: trees and packages a kit names itself, then the git mirrors'
// (export.sh skips the ones already there).
let missing: KitRepoSpec[];
try {
  missing = layOutKitRepos(chosen, out, repoRoot, mirrors);
} catch (err) {
  console.error(`eval:semble-dev: ${(err as Error).message}`);
  process.exit(2);
}
if (missing.length > 0) {
  if (!mirrors) {
    console.error(`eval:semble-dev: ${missing.length} repos are not laid out in ${out}/repos; pass --mirrors DIR (bare git mirrors as OWNER+NAME/repo) or set MIRROR_ROOT`);
    process.exit(2);
  }
  execFileSync("bash", [join(kit, "export.sh"), mirrors, out], { stdio: ["ignore", "inherit", "inherit"] });
}

const tasks = loadTasks(kit, chosen);
// Extra config (ablations, chunking experiments). Settings that change what is indexed get stores
// of their own; retrieval settings reuse the default run's stores.
const extraConfig = opt("overrides") ? (JSON.parse(opt("overrides")!) as Record<string, unknown>) : {};
const { retrieval: _retrieval, ...indexConfig } = extraConfig;
const storeSuffix =
  (Object.keys(indexConfig).length ? `-${createHash("sha1").update(JSON.stringify(indexConfig)).digest("hex").slice(0, 8)}` : "") + (wholeCheckout ? "-whole" : "");
const results: Record<Mode, RunResult[]> = { keyword: [], hybrid: [], vector: [] };
const timing: Array<{ repo: string; indexMs: number; files: number; chunks: number; queryMsP50: number }> = [];

for (const spec of chosen) {
  const { engine, prefix } = await openSembleEngine(out, spec, { storeSuffix, config: extraConfig });
  try {
    const started = performance.now();
    const summary = await engine.index({ force: flag("force") });
    const indexMs = performance.now() - started;
    for (const e of summary.errors) process.stderr.write(`  ${spec.name}: ${e.filePath}: ${e.error}\n`);
    const status = await engine.status({ countPending: false });
    const times: number[] = [];
    for (const task of tasks.filter((t) => t.repo === spec.name)) {
      for (const mode of modes) {
        const t0 = performance.now();
        const hits = await engine.search(task.query, { topK: 10, mode });
        times.push(performance.now() - t0);
        results[mode].push({
          repo: spec.name,
          query: task.query,
          results: hits.map(({ chunk }) => ({ filePath: prefix + chunk.filePath, startLine: chunk.startLine, endLine: chunk.endLine })),
        });
      }
    }
    times.sort((a, b) => a - b);
    timing.push({ repo: spec.name, indexMs, files: status.files, chunks: status.chunks, queryMsP50: times[Math.floor(times.length / 2)] ?? 0 });
    process.stderr.write(`${spec.name}: ${summary.filesIndexed} indexed, ${summary.filesUnchanged} unchanged, ${status.chunks} chunks, ${(indexMs / 1000).toFixed(1)} s\n`);
  } finally {
    await engine.close();
  }
}

mkdirSync(out, { recursive: true });
const report: Record<string, unknown> = { timing };
for (const mode of modes) {
  const file = join(out, `RESULTS-${mode}.jsonl`);
  writeFileSync(file, results[mode].map((r) => JSON.stringify(r)).join("\n") + "\n");
  report[mode] = scoreRun(tasks, chosen, results[mode]);
}

if (flag("json")) {
  console.log(JSON.stringify(report, null, 2));
} else {
  printTables(report);
}

if (flag("check")) {
  // The kit's reference scorer on the same files: its numbers must match ours to 3 decimals.
  const files = modes.map((m) => join(out, `RESULTS-${m}.jsonl`));
  const text = execFileSync("python3", [join(kit, "score.py"), join(kit, "annotations"), ...files, "--json", "--answered-only"], { encoding: "utf8" });
  const ref = JSON.parse(text) as Record<string, { summary: { ndcg10: number; recall10: number; by_repo: Record<string, { ndcg10: number; recall10: number }> } }>;
  let disagreements = 0;
  for (const mode of modes) {
    const ours = report[mode] as ReturnType<typeof scoreRun>;
    const theirs = ref[`RESULTS-${mode}.jsonl`].summary;
    const pairs: Array<[string, number, number]> = [
      [`${mode} overall NDCG@10`, ours.overall.ndcg, theirs.ndcg10],
      [`${mode} overall Recall@10`, ours.overall.recall, theirs.recall10],
      ...Object.entries(theirs.by_repo).map(([r, v]) => [`${mode} ${r} NDCG@10`, ours.byRepo[r]?.ndcg ?? NaN, v.ndcg10] as [string, number, number]),
    ];
    for (const [label, a, b] of pairs) {
      if (a.toFixed(3) !== b.toFixed(3)) {
        disagreements++;
        console.error(`score.py disagrees: ${label}: ours ${a.toFixed(4)}, score.py ${b.toFixed(4)}`);
      }
    }
  }
  (flag("json") ? console.error : console.log)(disagreements === 0 ? `\nscore.py agrees to 3 decimals on every mode, repo and the overall numbers.` : `\nscore.py disagrees on ${disagreements} numbers`);
  if (disagreements) process.exitCode = 1;
}

function printTables(rep: Record<string, unknown>): void {
  const runs = modes.map((m) => [m, rep[m] as ReturnType<typeof scoreRun>] as const);
  const fmt = (x: number | undefined) => (x === undefined ? "  -  " : x.toFixed(3));
  const header = `| | ${runs.map(([m]) => `${m} NDCG@10 | R@10`).join(" | ")} |`;
  const rule = `|---|${runs.map(() => "---:|---:").join("|")}|`;
  const row = (label: string, pick: (s: ReturnType<typeof scoreRun>) => { ndcg: number; recall: number } | undefined) =>
    `| ${label} | ${runs.map(([, s]) => { const v = pick(s); return `${fmt(v?.ndcg)} | ${fmt(v?.recall)}`; }).join(" | ")} |`;
  const first = runs[0][1];
  console.log(header);
  console.log(rule);
  console.log(row("**overall**", (s) => s.overall));
  for (const c of Object.keys(first.byCategory)) console.log(row(`category ${c}`, (s) => s.byCategory[c]));
  for (const l of Object.keys(first.byLanguage)) console.log(row(`language ${l}`, (s) => s.byLanguage[l]));
  for (const r of Object.keys(first.byRepo)) console.log(row(`repo ${r}`, (s) => s.byRepo[r]));
  const idx = timing.reduce((a, t) => a + t.indexMs, 0) / Math.max(1, timing.length);
  const p50s = timing.map((t) => t.queryMsP50).sort((a, b) => a - b);
  console.log(`\nindex time per repo (mean): ${(idx / 1000).toFixed(2)} s; query p50 (median of repos): ${(p50s[Math.floor(p50s.length / 2)] ?? 0).toFixed(1)} ms`);
}
