// find_usages (F19): identifier occurrences of a symbol in every file that has them, counted
// and classified per file, definition excluded; the answer's shape is core/symbols/usage-report.
// Candidate files come from the keyword index, so a large repository is not read end to end;
// without an index a bounded scan of the workspace stands in. The CLI's `usages` command and
// both tool hosts go through collectUsages.
import { z } from "zod";
import { IgnoreRules, walkWorkspace } from "../../core/files/index.js";
import { readRegularFile } from "../../core/files/safe-read.js";
import { sizeLimitFor } from "../../core/files/size-limits.js";
import { fileSizeLimits } from "../../core/indexing/workspace-rules.js";
import { buildUsageReport, findOccurrences, findOccurrencesInText, type FileOccurrences, type Occurrence, type UsagePageOptions, type UsageReport } from "../../core/symbols/index.js";
import type { RagWorkspace } from "../workspace.js";
import { requiredText, wholeNumber } from "./args.js";
import { indexNotice, parsedInProcess, pathPrefixes, readWorkspaceFile, safeStatus } from "./context.js";
import { renderUsages, type CollectedUsages } from "./find-usages-text.js";

export type { CollectedUsages };


export const findUsagesArgs = {
  symbolName: requiredText(200, "symbolName is empty: give the identifier to find, e.g. parseConfig")
    // Lisp names join words with hyphens (`magit-tag-create`).
    .regex(/^[A-Za-z_$][\w$]*(?:-[\w$]+)*$/, "symbolName must be one identifier, e.g. parseConfig or magit-tag-create (no dots, spaces or parentheses)")
    .describe("The identifier to find, e.g. parseConfig"),
  pathHint: z.string().min(1, "pathHint is empty: give a workspace path prefix such as 'src/', or leave it out").max(500).optional().describe("Only look under this workspace path prefix, e.g. 'src/'"),
  topK: wholeNumber("topK", 1, 100).optional().describe("Uses to show with their lines, 1-100 (default 30), taken in turn from each file; every file is listed with its count regardless"),
  includeComments: z.boolean().optional().describe("Also list mentions in comments and strings (default false)"),
  file: z.string().min(1, "file is empty: give a path from the answer's file list, or leave it out").max(500).optional().describe("Only this file's uses (a workspace-relative path from the answer's file list), e.g. 'src/app.ts'"),
  offset: wholeNumber("offset", 0, 1_000_000).optional().describe("Skip this many uses, to see the ones after a previous answer (it says which offset to pass)"),
};
export const FindUsagesSchema = z.object(findUsagesArgs);
export type FindUsagesInput = ReturnType<(typeof FindUsagesSchema)["parse"]>;

/** What finding usages needs of a workspace: the plugin's and MCP's RagWorkspace, or the CLI's stand-in. */
export type UsageWorkspace = Pick<RagWorkspace, "root" | "config" | "engine" | "deps">;


/** Uses shown per answer unless topK says otherwise. */
export const DEFAULT_USAGE_PAGE = 30;
/** Chunks asked of the keyword index for candidate files. */
const CANDIDATE_CHUNKS = 100;
/** Bounds of the fallback scan when no index can answer. */
const SCAN_MAX_FILES = 5000;
const SCAN_MAX_BYTES = 50 * 1024 * 1024;
/**
 * Files parsed with their grammar per answer (about 10 ms each); past this, a symbol used all
 * over a large repository is still counted in every file, by whole-word match on each line.
 */
const MAX_PARSED_FILES = 500;

async function candidatesFromIndex(ws: UsageWorkspace, input: FindUsagesInput, prefixes: string[]): Promise<{ files: string[]; notice: string | null; saturated: boolean } | null> {
  try {
    const engine = await ws.engine();
    // The hits only name candidate files, so retrieval.maxChunks (a bound on what a search
    // shows) must not cut them short.
    const results = await engine.search(input.symbolName, {
      topK: CANDIDATE_CHUNKS,
      uncapped: true,
      minScore: 0,
      mode: "keyword",
      rank: false,
      filter: prefixes.length ? { pathPrefixes: prefixes } : undefined,
    });
    const status = await safeStatus(engine);
    if (results.length === 0 && (!status || status.chunks === 0)) return null;
    const files = [...new Set(results.filter((r) => r.chunk.kind !== "image" && r.chunk.kind !== "quirk").map((r) => r.chunk.filePath))];
    // A full page of hits means the index knows more files than it returned: complete the list
    // with the bounded scan rather than silently missing callers. An engine that still applied
    // maxChunks returns exactly that many; an index still building may lack files.
    const saturated =
      results.length >= CANDIDATE_CHUNKS || results.length === engine.config.retrieval.maxChunks || Boolean(status?.indexing);
    return { files, notice: status ? indexNotice(status) : null, saturated };
  } catch {
    return null;
  }
}

async function candidatesByScan(ws: UsageWorkspace, symbol: string, prefixes: string[]): Promise<{ files: string[]; truncated: boolean }> {
  const cfg = ws.config;
  const limits = fileSizeLimits(cfg.indexing);
  const walked = await walkWorkspace(ws.root, { rules: new IgnoreRules(ws.root, cfg.indexing), ...limits });
  const files: string[] = [];
  let bytes = 0;
  let seen = 0;
  for (const f of walked.files) {
    if (prefixes.length && !prefixes.some((p) => f.path.startsWith(p))) continue;
    if (++seen > SCAN_MAX_FILES || bytes > SCAN_MAX_BYTES) return { files, truncated: true };
    bytes += f.size;
    try {
      // The walk saw a regular file; it may have been swapped for a FIFO since.
      if ((await readRegularFile(f.absPath, { maxBytes: sizeLimitFor(f.path, limits).bytes })).toString("utf8").includes(symbol)) files.push(f.path);
    } catch {
      // unreadable, or no longer a regular file: skip
    }
  }
  return { files, truncated: false };
}

/** The files that may use the symbol, and notes on how complete that list is. */
async function candidateFiles(ws: UsageWorkspace, input: FindUsagesInput, prefixes: string[]): Promise<{ files: string[]; notes: string[] }> {
  const notes: string[] = [];
  const fromIndex = await candidatesFromIndex(ws, input, prefixes);
  if (!fromIndex) {
    const scan = await candidatesByScan(ws, input.symbolName, prefixes);
    notes.push(`(no usable index: scanned the workspace directly${scan.truncated ? `, stopped after ${SCAN_MAX_FILES} files` : ""})`);
    return { files: scan.files, notes };
  }
  if (fromIndex.notice) notes.push(fromIndex.notice);
  if (!fromIndex.saturated) return { files: fromIndex.files, notes };
  const scan = await candidatesByScan(ws, input.symbolName, prefixes);
  if (scan.truncated) notes.push(`(many matches: scanned only the first ${SCAN_MAX_FILES} files beyond the index's hits, so the list may be incomplete; narrow with pathHint)`);
  return { files: [...new Set([...fromIndex.files, ...scan.files])], notes };
}

/**
 * One file's uses, through its grammar when it has one; null when it cannot be read.
 * `tooLarge`: it was to be parsed, but is too large to parse in this process (its uses were matched in its text).
 */
async function usesInFile(ws: UsageWorkspace, rel: string, input: FindUsagesInput, parse = true): Promise<{ file: FileOccurrences; content: string; tooLarge?: boolean } | null> {
  // Deleted, moved out through a symlink or replaced by a FIFO since it was indexed: skipped.
  const read = await readWorkspaceFile(ws, rel);
  if (typeof read === "string" || read.kind !== "file") return null;
  const content = read.text;
  if (!content.includes(input.symbolName)) return { file: { path: read.path.rel, language: ws.deps.languageForPath(rel, content) ?? "text", occurrences: [] }, content };
  const tooLarge = parse && !parsedInProcess(ws, content);
  const parsed = parse && !tooLarge ? await ws.deps.parseSource(rel, content).catch(() => null) : null;
  const occurrences: Occurrence[] = parsed
    ? findOccurrences(parsed.root, input.symbolName, { includeCommentsAndStrings: input.includeComments })
    : findOccurrencesInText(content, input.symbolName);
  return { file: { path: read.path.rel, language: parsed?.language ?? ws.deps.languageForPath(rel, content) ?? "text", occurrences }, content, ...(tooLarge ? { tooLarge } : {}) };
}

/**
 * Every use of the symbol (or of one file's, with `file`), as a report with one page of uses;
 * a string when the arguments cannot be answered (a path outside the workspace, a file that
 * cannot be read).
 */
export async function collectUsages(ws: UsageWorkspace, input: FindUsagesInput): Promise<CollectedUsages | string> {
  const limit = input.topK ?? DEFAULT_USAGE_PAGE;
  const contents = new Map<string, string>();
  const found: FileOccurrences[] = [];
  let notes: string[] = [];
  let file: string | undefined;
  const matchedInText: string[] = [];
  if (input.file !== undefined) {
    // One file asked for by name: read it alone, no index needed.
    const one = await readWorkspaceFile(ws, input.file);
    if (typeof one === "string") return one;
    if (one.kind !== "file") return `\`${one.path.rel}\` is a directory; pass a file from the answer's file list, or use pathHint for a folder.`;
    file = one.path.rel;
    const uses = await usesInFile(ws, file, input);
    if (uses) {
      found.push(uses.file);
      contents.set(file, uses.content);
      if (uses.tooLarge && uses.file.occurrences.length > 0) matchedInText.push(file);
    }
  } else {
    const prefixes = pathPrefixes(ws.root, input.pathHint ? [input.pathHint] : undefined);
    if (typeof prefixes === "string") return prefixes;
    const candidates = await candidateFiles(ws, input, prefixes);
    notes = candidates.notes;
    let read = 0;
    let countedByText = false;
    // Sorted, so which files are parsed when there are too many is the same on every call.
    for (const rel of candidates.files.sort()) {
      const parse = read < MAX_PARSED_FILES;
      const uses = await usesInFile(ws, rel, input, parse);
      if (!uses) continue;
      read++;
      if (uses.file.occurrences.length === 0) continue;
      countedByText ||= !parse;
      if (uses.tooLarge) matchedInText.push(uses.file.path);
      found.push(uses.file);
      contents.set(uses.file.path, uses.content);
    }
    if (countedByText) {
      notes.push(`(over ${MAX_PARSED_FILES} candidate files: those past the first ${MAX_PARSED_FILES} were counted by whole-word match, so comments may count there and kinds are guessed from the line; narrow with pathHint for exact counts)`);
    }
  }
  if (matchedInText.length > 0) notes.push(tooLargeToParseNote(matchedInText, ws.config.indexing.maxFileSizeBytes));
  const page: UsagePageOptions = { limit, offset: input.offset, file };
  const report = buildUsageReport(input.symbolName, found, page);
  return { symbol: input.symbolName, files: found, page, report, notes, contents, ...(input.pathHint ? { pathHint: input.pathHint } : {}) };
}

/** Says which files were matched in their text for being too large to parse here (`parsedInProcess`). */
function tooLargeToParseNote(paths: string[], maxFileSizeBytes: number): string {
  const named = paths.slice(0, 3).map((p) => `\`${p}\``).join(", ") + (paths.length > 3 ? ` and ${paths.length - 3} more` : "");
  return `(${named}: larger than indexing.maxFileSizeBytes (${maxFileSizeBytes} bytes), so not parsed; uses there were matched line by line, a mention in a string may count and kinds are guessed from the line)`;
}

/** The find_usages answer: every file with its count and kinds, one page of uses, and how to see the rest. */
export async function runFindUsages(ws: UsageWorkspace, input: FindUsagesInput): Promise<string> {
  const collected = await collectUsages(ws, input);
  if (typeof collected === "string") return collected;
  return renderUsages(collected, { budget: ws.config.openCode.toolTokenBudget, style: "tool" });
}
