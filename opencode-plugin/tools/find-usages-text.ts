// The text of a find-usages answer, for the agent (find_usages) and the terminal (`opencode-rag
// usages`): the complete file list first, then one page of uses with the lines around them,
// then how many uses are left and the exact way to ask for them.
import { buildUsageReport, USE_KINDS, type FileOccurrences, type FileUsageSummary, type PagedUse, type UsagePageOptions, type UsageReport } from "../../core/symbols/index.js";
import { countTokens } from "../../core/telemetry/tokens.js";
import { formatCount } from "../format.js";

/** Lines of context on each side of a use (one before, one after). */
const CONTEXT_LINES = 1;
/** Longest source line shown. */
const MAX_LINE_CHARS = 200;
/** Share of the token budget the file list may take before the rest is summed up in one line. */
const FILE_LIST_SHARE = 0.5;
/** How much smaller each retry makes a page that does not fit the budget. */
const PAGE_SHRINK = 0.7;

export interface RenderUsagesOptions {
  /** Token budget of the whole answer (the tools'); none for the terminal. */
  budget?: number;
  /** How the "more" line names the parameters: tool arguments or CLI flags. */
  style: "tool" | "cli";
}

function plural(n: number, one: string): string {
  return `${formatCount(n)} ${n === 1 ? one : `${one}s`}`;
}

/** "3 reference(s)": the count wording the answers have always used. */
function references(n: number): string {
  return `${formatCount(n)} reference(s)`;
}

/** "import 1, call 2": the kinds of use in a file, most telling first. */
export function kindsText(kinds: FileUsageSummary["kinds"]): string {
  return USE_KINDS.filter((k) => kinds[k]).map((k) => `${k} ${kinds[k]}`).join(", ");
}

/** Everything one find_usages answer is written from. */
export interface CollectedUsages {
  symbol: string;
  /** Every file with a use (or the one file asked for). */
  files: FileOccurrences[];
  /** The page asked for. */
  page: UsagePageOptions;
  /** The files and the page asked for, in answer order. */
  report: UsageReport;
  /** Why the list may be partial or how it was found (index building, no index, scan cut short). */
  notes: string[];
  /** Where the uses were looked for, when a path hint narrowed it. */
  pathHint?: string;
  /** The files' text, for the excerpts. */
  contents: Map<string, string>;
}

function fileLine(f: FileUsageSummary): string {
  return `- ${f.path} — ${formatCount(f.count)} (${kindsText(f.kinds)})`;
}

/** Every file, one line each; past the budget's share, the rest in one line so none goes unmentioned. */
function fileList(files: FileUsageSummary[], budget: number | undefined): string[] {
  const lines = ["Files, importers first, tests last:"];
  let used = countTokens(lines[0]);
  for (let i = 0; i < files.length; i++) {
    const line = fileLine(files[i]);
    const cost = countTokens(line) + 1;
    if (budget !== undefined && used + cost > budget * FILE_LIST_SHARE && i < files.length - 1) {
      const rest = files.slice(i);
      const uses = rest.reduce((n, f) => n + f.count, 0);
      lines.push(`- … and ${plural(rest.length, "more file")} with ${plural(uses, "use")} (narrow with pathHint to list them)`);
      break;
    }
    lines.push(line);
    used += cost;
  }
  return lines;
}

/** One file's uses on this page, with a line of context each side; nearby uses share their lines. */
function excerpt(path: string, language: string, count: number, content: string, uses: PagedUse[]): string {
  const lines = content.split("\n");
  const marked = new Set(uses.map((u) => u.occurrence.line));
  const shown = uses.length === count ? "" : `, ${formatCount(uses.length)} shown here`;
  const out = [`### ${path} (${language}) — ${references(count)}${shown}`];
  let shownUpTo = 0;
  for (const line of [...marked].sort((a, b) => a - b)) {
    const from = Math.max(1, line - CONTEXT_LINES, shownUpTo + 1);
    const to = Math.min(lines.length, line + CONTEXT_LINES);
    if (from > shownUpTo + 1 && shownUpTo > 0) out.push("   …");
    for (let n = from; n <= to; n++) out.push(`${marked.has(n) ? ">" : " "}${String(n).padStart(5)} | ${lines[n - 1].slice(0, MAX_LINE_CHARS)}`);
    shownUpTo = Math.max(shownUpTo, to);
  }
  return out.join("\n");
}

function argument(style: RenderUsagesOptions["style"], name: "offset" | "file", value: string | number): string {
  if (style === "cli") return `--${name} ${typeof value === "string" && /\s/.test(value) ? JSON.stringify(value) : value}`;
  return `${name}=${typeof value === "string" ? JSON.stringify(value) : value}`;
}

/** "67 more uses in 2 files: …", naming the offset of the next page and the file with the most left. */
function moreLine(report: UsageReport, style: RenderUsagesOptions["style"]): string | null {
  const { uses, files } = report.remaining;
  if (uses === 0) return null;
  const next = report.offset + report.page.length;
  const again = style === "cli" ? "run the same command with" : "call find_usages again with the same arguments and";
  if (report.file !== undefined) return `${plural(uses, "more use")} in this file: ${again} ${argument(style, "offset", next)}.`;
  return `${plural(uses, "more use")} in ${plural(files, "file")}: ${again} ${argument(style, "offset", next)} for the next ones, or with ${argument(style, "file", report.remaining.mostIn!)} (no offset) for that file's alone.`;
}

function headerLines(collected: CollectedUsages, report: UsageReport): string[] {
  const symbol = `\`${report.symbol}\``;
  if (report.file !== undefined) {
    const f = report.files[0];
    return [`## Usages of ${symbol} in ${report.file} — ${references(report.total)}${f ? ` (${kindsText(f.kinds)})` : ""} (definition excluded)`, ...collected.notes];
  }
  return [`## Usages of ${symbol} — ${references(report.total)} in ${formatCount(report.files.length)} file(s) (definition excluded)`, ...collected.notes];
}

function render(collected: CollectedUsages, report: UsageReport, options: RenderUsagesOptions): string {
  const parts = [headerLines(collected, report).join("\n")];
  if (report.total === 0) {
    const where = report.file !== undefined ? "" : collected.pathHint ? ` under ${collected.pathHint}` : "";
    const none = report.file !== undefined ? `No references in ${report.file}.` : `No references found${where}.`;
    return `${parts[0]}\n${none} Check the spelling (names are case-sensitive) or try search_semantic.`;
  }
  if (report.file === undefined) parts.push(fileList(report.files, options.budget).join("\n"));
  if (report.page.length === 0) {
    parts.push(`Offset ${formatCount(collected.page.offset ?? 0)} is past the last use (there are ${formatCount(report.offset)}); ask again with a smaller offset.`);
    return parts.join("\n\n");
  }
  const first = report.offset + 1;
  const last = report.offset + report.page.length;
  const scopeTotal = report.offset + report.page.length + report.remaining.uses;
  const order = report.file === undefined && report.files.length > 1 ? ", taken in turn from each file" : "";
  parts.push(`Uses ${formatCount(first)}-${formatCount(last)} of ${formatCount(scopeTotal)}${order}:`);
  for (const f of report.files) {
    const uses = report.page.filter((u) => u.path === f.path);
    if (uses.length > 0) parts.push(excerpt(f.path, f.language, f.count, collected.contents.get(f.path) ?? "", uses));
  }
  const more = moreLine(report, options.style);
  if (more) parts.push(more);
  return parts.join("\n\n");
}

/**
 * The answer's text. Over the budget, the page of uses shrinks (never the file list's
 * completeness, never the paging: the "more" line always names the next offset).
 */
export function renderUsages(collected: CollectedUsages, options: RenderUsagesOptions): string {
  let report = collected.report;
  let text = render(collected, report, options);
  while (options.budget !== undefined && countTokens(text) > options.budget && report.page.length > 1) {
    const limit = Math.max(1, Math.floor(report.page.length * PAGE_SHRINK));
    report = buildUsageReport(collected.symbol, collected.files, { ...collected.page, limit });
    text = render(collected, report, options);
  }
  return text;
}
