// `opencode-rag query "<text>"`: search the index. Human output is compact (path:lines, score,
// symbol, a few lines); --json prints the result array; --batch FILE --json answers one query
// per input line with one JSON array per output line, in one process.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { GLOBAL_OPTIONS, UsageError, type Command, type CommandContext } from "../command.js";
import { loadConfig } from "../../core/config/load.js";
import type { SearchOptions } from "../../core/engine-types.js";
import { manifestPath } from "../../core/indexing/manifest.js";
import { connectQueryServer, type QueryClient } from "../../core/ipc/query-client.js";
import { queryFingerprint } from "../../core/ipc/query-socket.js";
import { previewWindow } from "../../core/retrieval/preview-window.js";
import type { SearchResult } from "../../core/types.js";
import { terminalSafe } from "../format.js";
import { readLineFile } from "../line-file.js";

const PREVIEW_LINES = 3;
const JSON_PREVIEW_CHARS = 300;

export interface JsonResult {
  filePath: string;
  startLine: number;
  endLine: number;
  score: number;
  language: string;
  kind: string;
  symbol: string;
  preview: string;
  /** The LLM-written description (F14), only when the chunk has one. */
  description?: string;
  /** `generated` or `vendored` (SearchResult.origin), only for such a file. */
  origin?: "generated" | "vendored";
}

export function toJsonResult(r: SearchResult): JsonResult {
  const c = r.chunk;
  const preview = c.content.length > JSON_PREVIEW_CHARS ? c.content.slice(0, JSON_PREVIEW_CHARS) + "…" : c.content;
  return {
    filePath: c.filePath,
    startLine: c.startLine,
    endLine: c.endLine,
    score: Math.round(r.score * 10000) / 10000,
    language: c.language,
    kind: c.kind,
    symbol: c.symbol,
    preview,
    ...(c.description ? { description: c.description } : {}),
    ...(r.origin ? { origin: r.origin } : {}),
  };
}

/**
 * One result for a terminal: a few of its non-blank lines, those that show the query best, each
 * after its line number (an image's description has none). Nothing from the index may move the
 * cursor, retitle the window or fake a line.
 */
export function humanResult(r: SearchResult, query: string): string {
  const c = r.chunk;
  const what = terminalSafe([c.kind, c.symbol, r.origin ? `(${r.origin})` : ""].filter(Boolean).join(" "));
  const head = `${terminalSafe(c.filePath)}:${c.startLine}-${c.endLine}  ${r.score.toFixed(2)}${what ? `  ${what}` : ""}`;
  const nonBlank = c.content
    .split("\n")
    .map((text, i) => ({ text, line: c.startLine + i }))
    .filter((l) => l.text.trim());
  const { start, end } = previewWindow(nonBlank.map((l) => l.text), query, PREVIEW_LINES);
  const width = String(c.endLine).length;
  const gutter = (line: number) => (c.kind === "image" ? "" : `${String(line).padStart(width)}  `);
  const body = nonBlank
    .slice(start, end)
    .map(({ text, line }) => `    ${gutter(line)}${terminalSafe(text.length > 120 ? text.slice(0, 117) + "…" : text)}`)
    .join("\n");
  const described = c.description ? `${head}\n    » ${terminalSafe(c.description.replace(/\s+/g, " ").trim())}` : head;
  return body ? `${described}\n${body}` : described;
}

function parseTopK(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--top-k must be a whole number of at least 1, got "${value}"`);
  return n;
}

type OptionValues = CommandContext["values"];

function searchOptions(values: OptionValues): SearchOptions {
  const asList = (v: unknown): string[] | undefined => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).map(String));
  const pathPrefixes = asList(values.path)?.map((p) => p.replace(/\\/g, "/").replace(/^\.\//, ""));
  const languages = asList(values.language);
  return {
    topK: parseTopK(values["top-k"]),
    filter: pathPrefixes || languages ? { pathPrefixes, languages } : undefined,
  };
}

/** The query text of the command line: all positionals, one query; blank is a usage mistake. */
function queryText(positionals: string[]): string {
  if (positionals.length === 0) throw new UsageError('missing the query text: opencode-rag query "where are embeddings batched"');
  const text = positionals.join(" ");
  if (text.trim() === "") throw new UsageError('the query text is empty: say what to look for, e.g. opencode-rag query "where are embeddings batched"');
  return text;
}

export const queryCommand: Command = {
  name: "query",
  summary: "search the index",
  help: `Usage: opencode-rag query "<text>" [--top-k N] [--path PREFIX] [--language L] [--json]
       opencode-rag query --batch FILE --json

  --top-k N        number of results (default: retrieval.topK)
  --path PREFIX    only files under this workspace-relative prefix (repeatable)
  --language L     only chunks of this language, e.g. typescript (repeatable)
  --json           print [{filePath, startLine, endLine, score, language, kind, symbol, preview}]
                   (and origin: "generated" or "vendored" for such a file)
  --batch FILE     one query per line (FILE "-" reads stdin); prints one JSON array per line`,
  options: {
    "top-k": { type: "string", short: "k" },
    path: { type: "string", multiple: true },
    language: { type: "string", multiple: true },
    json: { type: "boolean" },
    batch: { type: "string" },
  },
  allowPositionals: true,
  async run(ctx) {
    const json = ctx.values.json === true;
    const batch = ctx.values.batch as string | undefined;
    const opts = searchOptions(ctx.values);
    let text = "";
    if (batch !== undefined) {
      if (!json) throw new UsageError("--batch prints JSON lines: add --json");
      if (ctx.positionals.length > 0) throw new UsageError("give either a query or --batch FILE, not both");
    } else {
      text = queryText(ctx.positionals);
    }
    // A watching engine (the plugin, `index --watch`, `mcp`) answers at once; else search here.
    if (batch === undefined && !ctx.debug && !processWide[SERVER_TRIED]) {
      if (await answerFromRunningEngine(ctx.out, ctx.err, ctx.configPath, text, opts, json)) return 0;
    }
    const engine = await ctx.engine();
    const status = await engine.status({ countPending: false });
    if (status.manifestStatus === "missing") {
      throw new Error(`there is no index yet at ${status.stateDir}: run \`opencode-rag index\` first`);
    }
    if (status.keywordOnlyReason && !json) ctx.err(`note: keyword-only search: ${status.keywordOnlyReason}`);

    if (batch !== undefined) {
      for (const line of readLineFile(batch, "batch file")) {
        const results = await engine.search(line.trim(), opts);
        ctx.out(JSON.stringify(results.map(toJsonResult)));
      }
      return 0;
    }
    printResults(ctx.out, json, text, await engine.search(text, opts));
    return 0;
  },
};

// Set by the executable's entry once it has asked the running engine, so the full CLI it then
// loads does not ask a second time.
const SERVER_TRIED = Symbol.for("opencode-rag.query-server-tried");
const processWide = globalThis as { [SERVER_TRIED]?: boolean };

/** Prints the running engine's answer and returns true; false when no engine answered. */
async function answerFromRunningEngine(out: (t: string) => void, err: (t: string) => void, configPath: string | undefined, text: string, opts: SearchOptions, json: boolean): Promise<boolean> {
  const server = await runningServer(configPath);
  if (!server) return false;
  try {
    const answer = await server.ask(text, opts);
    if (!answer) return false;
    if (answer.keywordOnlyReason && !json) err(`note: keyword-only search: ${answer.keywordOnlyReason}`);
    printResults(out, json, text, answer.results);
    return true;
  } finally {
    server.close();
  }
}

/**
 * `opencode-rag query` answered by a running engine before the rest of the CLI loads (the
 * executable's entry calls this first): the exit code, or null when this is not a single
 * query, its arguments need the full CLI's messages, or no engine answered.
 */
export async function queryFromRunningEngine(argv: string[], out: (t: string) => void, err: (t: string) => void): Promise<number | null> {
  if (argv[0] !== queryCommand.name) return null;
  let values: OptionValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv.slice(1), options: { ...GLOBAL_OPTIONS, ...queryCommand.options }, allowPositionals: true, strict: true }) as { values: OptionValues; positionals: string[] });
  } catch {
    return null;
  }
  if (values.help || values.debug || values.batch !== undefined) return null;
  let opts: SearchOptions;
  let text: string;
  try {
    opts = searchOptions(values);
    text = queryText(positionals);
  } catch {
    return null;
  }
  processWide[SERVER_TRIED] = true;
  return (await answerFromRunningEngine(out, err, values.config as string | undefined, text, opts, values.json === true)) ? 0 : null;
}

/** The running engine of this workspace with these settings, when there is one and an index. */
async function runningServer(configPath: string | undefined): Promise<QueryClient | null> {
  let loaded;
  try {
    loaded = loadConfig({ configPath });
  } catch {
    return null; // the in-process path reports the config error
  }
  if (!existsSync(manifestPath(loaded.stateDir))) return null;
  return connectQueryServer(loaded.stateDir, queryFingerprint(loaded.root, loaded.storeUri, loaded.config));
}

function printResults(out: (t: string) => void, json: boolean, query: string, results: SearchResult[]): void {
  if (json) {
    out(JSON.stringify(results.map(toJsonResult), null, 2));
  } else if (results.length === 0) {
    out("no results");
  } else {
    out(results.map((r) => humanResult(r, query)).join("\n\n"));
  }
}
