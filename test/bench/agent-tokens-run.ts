// The agent-tokens section's measurement (bundled and imported by sections/agent-tokens.mjs):
// on every semble-dev repository and query, the tokens an agent reads before the first relevant
// file's code is in its context, by grep + read (OpenCode's own tools) and by search_semantic
// (the plugin's real answer, through the engine on the cached semble-dev index, default config).
// The counting rules are in agent-tokens-method.ts.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import type { Engine } from "../../core/engine-types.js";
import { openEngine } from "../../core/engine.js";
import { IgnoreRules } from "../../core/files/ignore-rules.js";
import { walkWorkspace } from "../../core/files/walk.js";
import { fileSizeLimits } from "../../core/indexing/workspace-rules.js";
import { silentLogger } from "../../core/logging/index.js";
import { contentTerms } from "../../core/retrieval/query-analysis.js";
import { countTokens } from "../../core/telemetry/tokens.js";
import type { SearchResult } from "../../core/types.js";
import { runSearchSemantic, shownLines } from "../../opencode-plugin/tools/search-semantic.js";
import type { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { loadTasks, type RepoSpec } from "../eval/semble-score.js";
import { formatRead, grepRead, searchThenRead, type ShownHit, type SourceFile, type Target } from "./agent-tokens-method.js";

export interface QueryRow {
  repo: string;
  query: string;
  grep: number;
  ours: number;
  /** Ours when the agent also reads the hit's file even though the answer shows the code. */
  oursRead: number;
  how: string;
  rank: number | null;
  searchTokens: number;
  grepTokens: number;
}

/** Where an agent's tools would show the files: a fixed, machine-independent absolute root. */
export const VIRTUAL_ROOT = "/home/dev";

/** Whether the semble-dev layout exists; a one-line reason when not. */
export function layoutMissing(kit: string, out: string): string | null {
  if (!existsSync(join(kit, "repos.json"))) return `no semble-dev kit at ${kit}`;
  const specs = JSON.parse(readFileSync(join(kit, "repos.json"), "utf8")) as RepoSpec[];
  const missing = specs.filter((s) => !existsSync(join(out, "repos", s.name)));
  if (missing.length) return `${missing.length} of ${specs.length} semble-dev repos are not laid out under ${join(out, "repos")} (create them with \`npm run eval:semble-dev -- --mirrors DIR\`)`;
  return null;
}

export async function measureAgentTokens(opts: { kit: string; out: string; repos?: string[]; log?: (m: string) => void }): Promise<QueryRow[]> {
  const log = opts.log ?? (() => {});
  const specs = (JSON.parse(readFileSync(join(opts.kit, "repos.json"), "utf8")) as RepoSpec[]).filter((s) => !opts.repos || opts.repos.includes(s.name));
  const tasks = loadTasks(opts.kit, specs);
  const rows: QueryRow[] = [];
  for (const spec of specs) {
    const checkout = join(opts.out, "repos", spec.name);
    const root = spec.benchmark_root ? join(checkout, spec.benchmark_root) : checkout;
    const prefix = spec.benchmark_root ? `${spec.benchmark_root.replace(/\/+$/, "")}/` : "";
    const repoRel = (rel: string) => prefix + rel;
    const absPath = (rel: string) => `${VIRTUAL_ROOT}/${spec.name}/${prefix}${rel}`;

    // The files grep sees: the indexer's own walk (same ignore rules), path order, text only.
    const walked = await walkWorkspace(root, { rules: new IgnoreRules(root, DEFAULT_CONFIG.indexing), ...fileSizeLimits(DEFAULT_CONFIG.indexing) });
    const files: SourceFile[] = [];
    for (const f of [...walked.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      const text = readFileSync(f.absPath, "utf8");
      if (!text.includes("\0")) files.push({ rel: f.path, text });
    }
    const byRel = new Map(files.map((f) => [f.rel, f.text]));
    const firstWindow = new Map<string, number>();
    const firstWindowTokens = (f: SourceFile) => {
      let n = firstWindow.get(f.rel);
      if (n === undefined) firstWindow.set(f.rel, (n = countTokens(formatRead(absPath(f.rel), f.text).output)));
      return n;
    };

    const engine = await openEngine({
      root,
      logger: silentLogger,
      overrides: {
        vectorStore: { path: join(opts.out, "stores", spec.name) },
        logging: { logFilePath: join(opts.out, "logs", `${spec.name}.log`) },
        autoIndex: { enabled: false },
      },
    });
    try {
      await engine.index();
      // The plugin's tool through a workspace that hands it this engine; the engine's search is
      // observed so the shown hits' line ranges are known.
      let last: SearchResult[] = [];
      const observed = new Proxy(engine, {
        get(target, prop, receiver) {
          if (prop === "search") {
            return async (...args: Parameters<Engine["search"]>) => (last = await target.search(...args));
          }
          const v = Reflect.get(target, prop, receiver);
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
      const ws = { root, engine: async () => observed } as unknown as RagWorkspace;
      for (const task of tasks.filter((t) => t.repo === spec.name)) {
        const targets: Target[] = task.targets;
        const words = contentTerms(task.query);
        let grepMemo: ReturnType<typeof grepRead> | null = null;
        const grep = () => (grepMemo ??= grepRead({ files, words, targets, repoRel, absPath, count: countTokens, firstWindowTokens }));
        last = [];
        const output = await runSearchSemantic(ws, { query: task.query });
        const shownRanks = new Set([...output.matchAll(/^### (\d+)\. /gm)].map((m) => Number(m[1])));
        const shown: ShownHit[] = last
          .map((r, i) => ({ r, rank: i + 1 }))
          .filter(({ r, rank }) => shownRanks.has(rank) && r.chunk.kind !== "image")
          .map(({ r }) => {
            const { start, end } = shownLines(r.chunk, task.query).window;
            return { rel: r.chunk.filePath, startLine: r.chunk.startLine, endLine: r.chunk.endLine, shownFirst: r.chunk.startLine + start, shownLast: r.chunk.startLine + end - 1 };
          });
        const common = { searchOutput: output, shown, targets, repoRel, absPath, fileText: (rel: string) => byRel.get(rel), count: countTokens, grepRead: grep };
        const ours = searchThenRead(common);
        const oursRead = searchThenRead({ ...common, alwaysRead: true });
        const g = grep();
        rows.push({ repo: spec.name, query: task.query, grep: g.tokens, ours: ours.tokens, oursRead: oursRead.tokens, how: ours.how, rank: ours.rank, searchTokens: ours.searchTokens, grepTokens: g.grepTokens });
      }
      log(`agent-tokens: ${spec.name}: ${files.length} files, ${tasks.filter((t) => t.repo === spec.name).length} queries`);
    } finally {
      await engine.close();
    }
  }
  return rows;
}
