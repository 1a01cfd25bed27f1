// What `opencode-rag usages` runs (cli/commands/usages.ts holds its name, help and options):
// the find_usages answer in a terminal — every file that uses the symbol with its count and
// kinds, one page of uses taken in turn from each file, and the --offset / --file that show the
// rest. Same collection and text as the agent tool; --json prints the report itself.
import { existsSync } from "node:fs";
import { languageForPath, parseSource } from "../../core/chunking/index.js";
import { loadConfig } from "../../core/config/load.js";
import { openEngine } from "../../core/engine.js";
import { manifestPath } from "../../core/indexing/manifest.js";
import type { SyntaxNodeLike } from "../../core/symbols/index.js";
import { collectUsages, FindUsagesSchema, type CollectedUsages, type UsageWorkspace } from "../../opencode-plugin/tools/find-usages.js";
import { renderUsages } from "../../opencode-plugin/tools/find-usages-text.js";
import { UsageError, type CommandContext } from "../command.js";
import { terminalSafe } from "../format.js";

function wholeNumber(flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return n;
}

/** The tool's arguments from the command line, checked by the tool's own schema. */
function usageInput(ctx: CommandContext) {
  if (ctx.positionals.length !== 1) throw new UsageError("give one identifier: opencode-rag usages parseConfig");
  if (ctx.positionals[0].trim() === "") throw new UsageError("the identifier is empty: give the one to find, e.g. opencode-rag usages parseConfig");
  const parsed = FindUsagesSchema.safeParse({
    symbolName: ctx.positionals[0],
    file: ctx.values.file,
    offset: wholeNumber("--offset", ctx.values.offset),
    topK: wholeNumber("--top-k", ctx.values["top-k"]),
    pathHint: ctx.values.path,
    includeComments: ctx.values.comments === true ? true : undefined,
  });
  if (!parsed.success) {
    // The tool's messages name its arguments; here they are the command's SYMBOL and flags.
    const flags: Record<string, string> = { symbolName: "the symbol", topK: "--top-k", pathHint: "--path", file: "--file", offset: "--offset" };
    const said = (key: string, message: string) => (message.startsWith(`${key} `) ? `${flags[key] ?? key}${message.slice(key.length)}` : `${flags[key] ?? key}: ${message}`);
    throw new UsageError(parsed.error.issues.map((i) => said(String(i.path[0]), i.message)).join("; "));
  }
  return parsed.data;
}

/** The CLI's stand-in for the plugin's workspace: the index when there is one, else the scan. */
function cliWorkspace(ctx: CommandContext): UsageWorkspace {
  const loaded = loadConfig({ configPath: ctx.configPath });
  const indexed = existsSync(manifestPath(loaded.stateDir));
  return {
    root: loaded.root,
    config: loaded.config,
    // No index yet: fail the engine so the bounded workspace scan answers, instead of creating one.
    engine: () => (indexed ? ctx.engine() : Promise.reject(new Error("no index yet"))),
    deps: {
      openEngine,
      async parseSource(filePath, content) {
        const parsed = await parseSource(filePath, content);
        return parsed ? { language: parsed.language, root: parsed.tree.rootNode as unknown as SyntaxNodeLike } : null;
      },
      languageForPath: (filePath, content) => languageForPath(filePath, content) ?? null,
    },
  };
}

/** The report as JSON: files with counts and kinds, this page's uses with their line, and what is left. */
function jsonReport(collected: CollectedUsages): object {
  const { report } = collected;
  return {
    symbol: report.symbol,
    total: report.total,
    files: report.files.map((f) => ({ filePath: f.path, language: f.language, count: f.count, kinds: f.kinds, importer: f.importer, test: f.test })),
    ...(report.file === undefined ? {} : { file: report.file }),
    offset: report.offset,
    uses: report.page.map((u) => ({
      filePath: u.path,
      line: u.occurrence.line,
      column: u.occurrence.column,
      kind: u.occurrence.use,
      text: (collected.contents.get(u.path) ?? "").split("\n")[u.occurrence.line - 1] ?? "",
    })),
    remaining: report.remaining,
    ...(report.remaining.uses > 0 ? { nextOffset: report.offset + report.page.length } : {}),
    notes: collected.notes,
  };
}

/** The command's run: prints the report and returns the exit code. */
export async function runUsages(ctx: CommandContext): Promise<number> {
  const input = usageInput(ctx);
  const collected = await collectUsages(cliWorkspace(ctx), input);
  if (typeof collected === "string") throw new UsageError(collected);
  if (ctx.values.json === true) ctx.out(JSON.stringify(jsonReport(collected), null, 2));
  else ctx.out(terminalSafe(renderUsages(collected, { style: "cli" }), { keepNewlines: true }));
  return 0;
}
