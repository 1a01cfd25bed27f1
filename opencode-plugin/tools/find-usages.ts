// find_usages (F19): identifier occurrences of a symbol, grouped by file with the lines around
// them, definition excluded. Candidate files come from the keyword index, so a large repository
// is not read end to end; without an index a bounded scan of the workspace stands in.
import { z } from "zod";
import { IgnoreRules, walkWorkspace } from "../../core/files/index.js";
import { readRegularFile } from "../../core/files/safe-read.js";
import { findOccurrences, findOccurrencesInText, type Occurrence } from "../../core/symbols/index.js";
import { fitSections } from "../format.js";
import type { RagWorkspace } from "../workspace.js";
import { indexNotice, pathPrefixes, readWorkspaceFile, safeStatus } from "./context.js";


export const findUsagesArgs = {
  symbolName: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z_$][\w$]*$/, "symbolName must be one identifier, e.g. parseConfig (no dots, spaces or parentheses)")
    .describe("The identifier to find, e.g. parseConfig"),
  pathHint: z.string().min(1).max(500).optional().describe("Only look under this workspace path prefix, e.g. 'src/'"),
  topK: z.number().int().min(1).max(100).optional().describe("Maximum number of references to list, 1-100 (default 30)"),
  includeComments: z.boolean().optional().describe("Also list mentions in comments and strings (default false)"),
};
export const FindUsagesSchema = z.object(findUsagesArgs);
export type FindUsagesInput = ReturnType<(typeof FindUsagesSchema)["parse"]>;

/** Lines of context on each side of a reference (one before, one after). */
const CONTEXT_LINES = 1;
/** Chunks asked of the keyword index for candidate files. */
const CANDIDATE_CHUNKS = 100;
/** Bounds of the fallback scan when no index can answer. */
const SCAN_MAX_FILES = 5000;
const SCAN_MAX_BYTES = 50 * 1024 * 1024;

async function candidatesFromIndex(ws: RagWorkspace, input: FindUsagesInput, prefixes: string[]): Promise<{ files: string[]; notice: string | null; saturated: boolean } | null> {
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

async function candidatesByScan(ws: RagWorkspace, symbol: string, prefixes: string[]): Promise<{ files: string[]; truncated: boolean }> {
  const cfg = ws.config;
  const walked = await walkWorkspace(ws.root, { rules: new IgnoreRules(ws.root, cfg.indexing), maxFileSizeBytes: cfg.indexing.maxFileSizeBytes });
  const files: string[] = [];
  let bytes = 0;
  let seen = 0;
  for (const f of walked.files) {
    if (prefixes.length && !prefixes.some((p) => f.path.startsWith(p))) continue;
    if (++seen > SCAN_MAX_FILES || bytes > SCAN_MAX_BYTES) return { files, truncated: true };
    bytes += f.size;
    try {
      // The walk saw a regular file; it may have been swapped for a FIFO since.
      if ((await readRegularFile(f.absPath, { maxBytes: cfg.indexing.maxFileSizeBytes })).toString("utf8").includes(symbol)) files.push(f.path);
    } catch {
      // unreadable, or no longer a regular file: skip
    }
  }
  return { files, truncated: false };
}

function renderFile(path: string, language: string, content: string, occ: Occurrence[]): string {
  const lines = content.split("\n");
  const out = [`### ${path} (${language}) — ${occ.length} reference(s)`];
  let shownUpTo = 0;
  for (const o of occ) {
    const from = Math.max(1, o.line - CONTEXT_LINES, shownUpTo + 1);
    const to = Math.min(lines.length, o.line + CONTEXT_LINES);
    if (from > shownUpTo + 1 && shownUpTo > 0) out.push("   …");
    for (let n = from; n <= to; n++) {
      const mark = occ.some((x) => x.line === n) ? ">" : " ";
      out.push(`${mark}${String(n).padStart(5)} | ${lines[n - 1].slice(0, 200)}`);
    }
    shownUpTo = Math.max(shownUpTo, to);
  }
  return out.join("\n");
}

export async function runFindUsages(ws: RagWorkspace, input: FindUsagesInput): Promise<string> {
  const prefixes = pathPrefixes(ws.root, input.pathHint ? [input.pathHint] : undefined);
  if (typeof prefixes === "string") return prefixes;
  const limit = input.topK ?? 30;
  const notes: string[] = [];
  let files: string[];
  const fromIndex = await candidatesFromIndex(ws, input, prefixes);
  if (fromIndex) {
    files = fromIndex.files;
    if (fromIndex.notice) notes.push(fromIndex.notice);
    if (fromIndex.saturated) {
      const scan = await candidatesByScan(ws, input.symbolName, prefixes);
      files = [...new Set([...files, ...scan.files])];
      if (scan.truncated) notes.push(`(many matches: scanned only the first ${SCAN_MAX_FILES} files beyond the index's hits, so the list may be incomplete; narrow with pathHint)`);
    }
  } else {
    const scan = await candidatesByScan(ws, input.symbolName, prefixes);
    files = scan.files;
    notes.push(`(no usable index: scanned the workspace directly${scan.truncated ? `, stopped after ${SCAN_MAX_FILES} files` : ""})`);
  }
  const sections: string[] = [];
  let total = 0;
  let fileCount = 0;
  let cut = false;
  for (const rel of files.sort()) {
    if (total >= limit) {
      cut = true;
      break;
    }
    // Deleted, moved out through a symlink or replaced by a FIFO since it was indexed: skipped.
    const read = await readWorkspaceFile(ws, rel);
    if (typeof read === "string" || read.kind !== "file") continue;
    const content = read.text;
    if (!content.includes(input.symbolName)) continue;
    let occ: Occurrence[];
    let language = ws.deps.languageForPath(rel) ?? "text";
    const parsed = await ws.deps.parseSource(rel, content).catch(() => null);
    if (parsed) {
      language = parsed.language;
      occ = findOccurrences(parsed.root, input.symbolName, { includeCommentsAndStrings: input.includeComments });
    } else {
      occ = findOccurrencesInText(content, input.symbolName);
    }
    if (occ.length === 0) continue;
    if (occ.length > limit - total) {
      occ = occ.slice(0, limit - total);
      cut = true;
    }
    total += occ.length;
    fileCount++;
    sections.push(renderFile(rel, language, content, occ));
  }
  if (cut) notes.push(`(stopped at topK=${limit}: there may be more references; raise topK (up to 100) or narrow with pathHint)`);
  const header = [`## Usages of \`${input.symbolName}\` — ${total} reference(s) in ${fileCount} file(s) (definition excluded)`, ...notes].join("\n");
  if (total === 0) {
    return `${header}\nNo references found${input.pathHint ? ` under ${input.pathHint}` : ""}. Check the spelling (names are case-sensitive) or try search_semantic.`;
  }
  return fitSections(header, sections, ws.config.openCode.toolTokenBudget, { omittedNote: (n) => `_${n} more file(s) omitted to stay within the token budget; narrow with pathHint._` }).text;
}
