// `opencode-rag eval`: runs query sets through Engine.search (the same path the CLI and the
// plugin tools use) and prints Recall@k, MRR@10, NDCG@10 and latency, for one configuration
// or two side by side. The scoring itself is portable and lives in core/eval.
import { runSessionsEval, SESSIONS_USAGE } from "./eval-sessions.js";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { openEngine } from "../../core/engine.js";
import { REINDEX_KEYS } from "../../core/config/defaults.js";
import { ConfigError, deepMerge, getPath } from "../../core/config/validate.js";
import { readJsonFile } from "../../core/config/load.js";
import { silentLogger } from "../../core/logging/index.js";
import type { Engine } from "../../core/engine-types.js";
import {
  builtInPreset,
  BUILT_IN_PRESETS,
  compareSummaries,
  formatComparison,
  formatSummary,
  parseQueryFile,
  presetFromJson,
  QueryFileError,
  runQueries,
  summarise,
  type EvalPreset,
  type EvalQuery,
  type QueryOutcome,
} from "../../core/eval/index.js";

export const EVAL_USAGE = `usage: opencode-rag eval --queries FILE [--root DIR] [options]
       opencode-rag eval --suite FILE [options]
${SESSIONS_USAGE}

Runs a query file (JSONL: {id, query, category, language, repo, relevant:[{filePath,
startLine?, endLine?}]}) against the index of --root (indexed first when needed) and prints
Recall@1/5/10 and MRR@10 (chunk level: a hit overlaps the relevant lines), strict MRR@10
(the hit covers at least half of them, up to 20 lines), NDCG@10 (file level) overall and by
category, language and repo (and by whether the query names its symbol, where the file says
so with "containsSymbolName"), plus query latency.

options:
  --queries FILE        the query file
  --root DIR            workspace to search (default: current directory)
  --suite FILE          JSON {"sets":[{"name","root","queries","repo"?}]}: several query
                        files over several workspaces in one run (paths relative to FILE)
  --preset P            one configuration (default: "default")
  --compare A B         two configurations side by side with deltas
                        presets: ${BUILT_IN_PRESETS.join(", ")} (a leading -- is
                        accepted, e.g. --compare default --no-rank), or a JSON file of
                        config overrides / {"overrides": {...}, "search": {"mode","rank"}}
  --top-k N             results per query (default 10)
  --repo NAME           only queries whose "repo" is NAME
  --category C          only queries of category C
  --limit N             only the first N queries of each set
  --no-index            search the existing index as is
  --config PATH         config file for every workspace
  --json                machine-readable output
`;

export interface EvalIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

const defaultIO: EvalIO = {
  stdout: (t) => process.stdout.write(t.endsWith("\n") ? t : t + "\n"),
  stderr: (t) => process.stderr.write(t.endsWith("\n") ? t : t + "\n"),
};

export class EvalUsageError extends Error {}

export interface EvalArgs {
  queries?: string;
  root?: string;
  suite?: string;
  presets: string[];
  topK: number;
  repo?: string;
  category?: string;
  limit?: number;
  index: boolean;
  configPath?: string;
  json: boolean;
}

export interface QuerySet {
  name: string;
  root: string;
  queries: EvalQuery[];
}

function positiveInt(flag: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!raw || !Number.isInteger(n) || n < 1) throw new EvalUsageError(`${flag} needs a whole number >= 1, got ${raw ?? "nothing"}`);
  return n;
}

export function parseEvalArgs(argv: string[]): EvalArgs {
  const args: EvalArgs = { presets: [], topK: 10, index: true, json: false };
  const value = (i: number, flag: string) => {
    const v = argv[i + 1];
    if (v === undefined) throw new EvalUsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case "--queries":
        args.queries = value(i++, a);
        break;
      case "--root":
        args.root = value(i++, a);
        break;
      case "--suite":
        args.suite = value(i++, a);
        break;
      case "--preset":
        args.presets = [value(i++, a)];
        break;
      case "--compare": {
        const x = argv[i + 1];
        const y = argv[i + 2];
        if (x === undefined || y === undefined) throw new EvalUsageError("--compare needs two configurations, e.g. --compare default bm25");
        args.presets = [x, y];
        i += 2;
        break;
      }
      case "--top-k":
        args.topK = positiveInt(a, value(i++, a));
        break;
      case "--repo":
        args.repo = value(i++, a);
        break;
      case "--category":
        args.category = value(i++, a);
        break;
      case "--limit":
        args.limit = positiveInt(a, value(i++, a));
        break;
      case "--no-index":
        args.index = false;
        break;
      case "--config":
        args.configPath = value(i++, a);
        break;
      case "--json":
        args.json = true;
        break;
      default:
        throw new EvalUsageError(`unknown option ${a} (see opencode-rag eval --help)`);
    }
  }
  if (!args.queries && !args.suite) throw new EvalUsageError("eval needs --queries FILE or --suite FILE");
  if (args.queries && args.suite) throw new EvalUsageError("use either --queries or --suite, not both");
  if (args.presets.length === 0) args.presets = ["default"];
  return args;
}

function loadPreset(spec: string): EvalPreset {
  const builtIn = builtInPreset(spec);
  if (builtIn) return builtIn;
  if (/\.jsonc?$/.test(spec)) {
    if (!existsSync(spec)) throw new EvalUsageError(`preset file not found: ${spec}`);
    return presetFromJson(basename(spec).replace(/\.jsonc?$/, ""), readJsonFile(spec));
  }
  throw new EvalUsageError(`unknown configuration "${spec}": use one of ${BUILT_IN_PRESETS.join(", ")} or a .json overrides file`);
}

function readQueries(file: string, setName: string, args: EvalArgs, repo?: string): EvalQuery[] {
  if (!existsSync(file)) throw new EvalUsageError(`query file not found: ${file}`);
  let qs = parseQueryFile(readFileSync(file, "utf8"), file).map((q) => ({ ...q, set: setName }));
  const wantRepo = args.repo ?? repo;
  if (wantRepo) qs = qs.filter((q) => q.repo === wantRepo);
  if (args.category) qs = qs.filter((q) => q.category === args.category);
  if (args.limit) qs = qs.slice(0, args.limit);
  return qs;
}

export function loadSets(args: EvalArgs): QuerySet[] {
  if (args.queries) {
    const file = resolve(args.queries);
    const name = basename(file).replace(/\.jsonl?$/, "");
    return [{ name, root: resolve(args.root ?? "."), queries: readQueries(file, name, args) }];
  }
  const suiteFile = resolve(args.suite!);
  if (!existsSync(suiteFile)) throw new EvalUsageError(`suite file not found: ${suiteFile}`);
  const suite = readJsonFile(suiteFile) as { sets?: Array<{ name?: string; root?: string; queries?: string; repo?: string }> };
  if (!suite || !Array.isArray(suite.sets) || suite.sets.length === 0) {
    throw new EvalUsageError(`${suiteFile}: expected {"sets": [{"name", "root", "queries", "repo"?}, ...]}`);
  }
  const base = dirname(suiteFile);
  return suite.sets.map((s, i) => {
    if (typeof s.root !== "string" || typeof s.queries !== "string") {
      throw new EvalUsageError(`${suiteFile}: sets[${i}] needs "root" and "queries" paths`);
    }
    const root = resolve(base, s.root);
    if (!existsSync(root)) throw new EvalUsageError(`${suiteFile}: sets[${i}] root ${root} does not exist (fetch the corpora first)`);
    const name = s.name ?? basename(s.queries).replace(/\.jsonl?$/, "");
    return { name, root, queries: readQueries(resolve(base, s.queries), name, args, s.repo) };
  });
}

/** A preset that changes how chunks are made or embedded gets its own index beside the default one. */
function engineOverrides(preset: EvalPreset): Record<string, unknown> {
  const touchesIndex = REINDEX_KEYS.some((k) => getPath(preset.overrides, k) !== undefined);
  if (!touchesIndex || getPath(preset.overrides, "vectorStore.path") !== undefined) return preset.overrides;
  const slug = preset.name.replace(/[^A-Za-z0-9_-]+/g, "-");
  return deepMerge(preset.overrides, { vectorStore: { path: `.opencode/rag_db-eval-${slug}` } });
}

async function withEngine<T>(root: string, preset: EvalPreset, args: EvalArgs, fn: (e: Engine) => Promise<T>): Promise<T> {
  const engine = await openEngine({ root, configPath: args.configPath, overrides: engineOverrides(preset), logger: silentLogger });
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

export interface PresetRun {
  preset: EvalPreset;
  outcomes: QueryOutcome[];
  /** Some workspace had no usable vectors, so hybrid searches were keyword-only. */
  keywordOnly: boolean;
}

/** Runs every set under every preset; indexes each workspace (and preset-specific index) once. */
export async function runEval(args: EvalArgs, io: EvalIO = defaultIO): Promise<PresetRun[]> {
  const presets = args.presets.map(loadPreset);
  const sets = loadSets(args);
  if (sets.every((s) => s.queries.length === 0)) throw new EvalUsageError("no queries left after filtering (check --repo / --category)");
  const runs: PresetRun[] = presets.map((preset) => ({ preset, outcomes: [], keywordOnly: false }));
  const indexed = new Set<string>();
  for (const set of sets) {
    if (set.queries.length === 0) continue;
    for (const run of runs) {
      await withEngine(set.root, run.preset, args, async (engine) => {
        const key = `${set.root}\u0000${engine.storeUri}`;
        if (args.index && !indexed.has(key)) {
          const s = await engine.index();
          indexed.add(key);
          if (!args.json && s.filesIndexed > 0) {
            io.stderr(`indexed ${set.root}: ${s.filesIndexed} files, ${s.chunksAdded} chunks in ${(s.durationMs / 1000).toFixed(1)} s`);
          }
        }
        const status = await engine.status();
        if (status.chunks === 0) throw new EvalUsageError(`the index of ${set.root} is empty: run without --no-index, or index it first`);
        if (status.keywordOnlyReason) {
          // The engine quietly answers vector searches from keywords when it has no vectors;
          // a measurement must not: say so, and refuse configurations that need vectors.
          if (run.preset.search.mode === "vector") {
            throw new EvalUsageError(`configuration "${run.preset.name}" needs vectors, but search in ${set.root} is keyword-only (${status.keywordOnlyReason})`);
          }
          run.keywordOnly = true;
        }
        const search = (q: EvalQuery) =>
          engine.search(q.query, { topK: args.topK, mode: run.preset.search.mode, rank: run.preset.search.rank });
        // Warm-up: the first query loads the model and the keyword index; keep it out of the latency numbers.
        await search(set.queries[0]);
        const outcomes = await runQueries(set.queries, async (q) =>
          (await search(q)).map((r) => ({ filePath: r.chunk.filePath, startLine: r.chunk.startLine, endLine: r.chunk.endLine })),
        );
        run.outcomes.push(...outcomes);
      });
    }
  }
  return runs;
}

function jsonReport(runs: PresetRun[]): unknown {
  const summaries = runs.map((r) => summarise(r.outcomes));
  return {
    presets: runs.map((r, i) => ({
      name: r.preset.name,
      search: r.preset.search,
      overrides: r.preset.overrides,
      keywordOnly: r.keywordOnly,
      summary: summaries[i],
      queries: r.outcomes.map((o) => ({
        id: o.query.id,
        set: o.query.set,
        category: o.query.category,
        language: o.query.language,
        repo: o.query.repo,
        ndcg10: o.scores.ndcg10,
        mrr10: o.scores.mrr10,
        strictMrr10: o.scores.strictMrr10,
        containsSymbolName: o.query.containsSymbolName,
        recall: o.scores.recall,
        latencyMs: Math.round(o.latencyMs * 100) / 100,
        results: o.results.slice(0, 10),
      })),
    })),
    comparison: runs.length === 2 ? compareSummaries(summaries[0], summaries[1]) : undefined,
  };
}

/** The command: returns the process exit code (0 ok, 2 bad usage or input, 1 failure). */
export async function evalCommand(argv: string[], io: EvalIO = defaultIO): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(EVAL_USAGE);
    return 0;
  }
  if (argv.includes("--sessions")) {
    try {
      return runSessionsEval(argv, io);
    } catch (err) {
      io.stderr(`opencode-rag eval: ${(err as Error).message.split("\n")[0]}`);
      return err instanceof ConfigError ? 2 : 1;
    }
  }
  let args: EvalArgs;
  try {
    args = parseEvalArgs(argv);
  } catch (err) {
    io.stderr(`opencode-rag eval: ${(err as Error).message}`);
    return 2;
  }
  let runs: PresetRun[];
  try {
    runs = await runEval(args, io);
  } catch (err) {
    const e = err as Error;
    io.stderr(`opencode-rag eval: ${e.message.split("\n")[0]}`);
    return e instanceof EvalUsageError || e instanceof QueryFileError || e instanceof ConfigError ? 2 : 1;
  }
  for (const r of runs) {
    if (r.keywordOnly && !args.json) io.stderr(`note: "${r.preset.name}" searched keywords only (no embedding model available)`);
  }
  if (args.json) {
    io.stdout(JSON.stringify(jsonReport(runs), null, 2));
  } else if (runs.length === 2) {
    io.stdout(formatComparison(runs[0].preset.name, summarise(runs[0].outcomes), runs[1].preset.name, summarise(runs[1].outcomes)));
  } else {
    io.stdout(`configuration: ${runs[0].preset.name}\n${formatSummary(summarise(runs[0].outcomes))}`);
  }
  return 0;
}
