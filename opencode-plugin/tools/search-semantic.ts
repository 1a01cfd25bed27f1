// search_semantic (F17): conceptual search over the index, answered as compact markdown
// (path, line range, score, language, symbol, description, and the lines of each hit that show
// the query best) within the tool budget.
import { z } from "zod";
import { contentLines, previewWindow, type LineWindow } from "../../core/retrieval/preview-window.js";
import type { ChunkRecord, SearchResult } from "../../core/types.js";
import { countTokens } from "../../core/telemetry/tokens.js";
import { fence, fitSections, preview } from "../format.js";
import type { RagWorkspace } from "../workspace.js";
import { requiredText, wholeNumber } from "./args.js";
import { engineOrMessage, indexNotice, pathPrefixes, safeStatus } from "./context.js";


export const searchSemanticArgs = {
  query: requiredText(1000, "query is empty: describe the code you need, e.g. 'where expired sessions are purged'").describe("Narrow, specific description of the code you need, e.g. 'where expired sessions are purged'"),
  pathHints: z.array(z.string().min(1)).max(10).optional().describe("Up to 10 workspace path prefixes to search in, e.g. ['src/auth/']"),
  languageHints: z.array(z.string().min(1)).max(10).optional().describe("Up to 10 languages to search in, e.g. ['typescript']"),
  topK: wholeNumber("topK", 1, 25).optional().describe("Number of results, 1-25 (default 10)"),
};

export const SearchSemanticSchema = z.object(searchSemanticArgs);
export type SearchSemanticInput = ReturnType<(typeof SearchSemanticSchema)["parse"]>;

/** Lines of a hit's chunk its answer shows at most. */
const PREVIEW_LINES = 24;

/** A hit's chunk as lines, and the lines of it that its answer shows: those that show the query best. */
export function shownLines(c: ChunkRecord, query: string): { lines: string[]; window: LineWindow } {
  const lines = contentLines(c.content);
  return { lines, window: previewWindow(lines, query, PREVIEW_LINES) };
}

export function formatSearchResult(r: SearchResult, rank: number, query: string): string {
  const c = r.chunk;
  if (c.kind === "image") {
    // An image row carries its stored description as content: that text is the answer, and a
    // line range or "image <path>" context says nothing.
    const text = (c.description || c.content).replace(/\s+/g, " ").trim();
    const head = `### ${rank}. ${c.filePath} · image · score ${r.score.toFixed(2)}`;
    return text ? `${head}\n> ${text}` : head;
  }
  const what = c.symbol ? ` · ${c.kind} \`${c.symbol}\`` : c.kind ? ` · ${c.kind}` : "";
  // A generated or vendored file says so: an agent changes its generator's input or its upstream, not it.
  const origin = r.origin ? ` · ${r.origin}` : "";
  const lines = [`### ${rank}. ${c.filePath}:${c.startLine}-${c.endLine} · ${c.language}${what}${origin} · score ${r.score.toFixed(2)}`];
  // The context line earns its tokens only when it says more than the header (a signature, a parent).
  if (c.context && c.context !== c.symbol && c.context !== `${c.kind} ${c.symbol}`) lines.push(`context: ${c.context}`);
  if (c.description) lines.push(`> ${c.description.replace(/\s+/g, " ").trim()}`);
  const shown = shownLines(c, query);
  lines.push(fence(preview(shown.lines, shown.window, c.startLine), c.language));
  return lines.join("\n");
}

export async function runSearchSemantic(ws: RagWorkspace, input: SearchSemanticInput, sessionID?: string): Promise<string> {
  const started = Date.now();
  const engine = await engineOrMessage(ws);
  if (typeof engine === "string") return engine;
  const prefixes = pathPrefixes(ws.root, input.pathHints);
  if (typeof prefixes === "string") return prefixes;
  const topK = input.topK ?? Math.min(engine.config.retrieval.topK, 25);
  const filter = {
    ...(prefixes.length ? { pathPrefixes: prefixes } : {}),
    ...(input.languageHints?.length ? { languages: input.languageHints.map((l) => l.toLowerCase()) } : {}),
  };
  const status = await safeStatus(engine);
  const notice = status ? indexNotice(status) : null;
  // Nothing indexed and nothing on the way: say so without loading the embedding model.
  if (status && status.chunks === 0 && !status.indexing) return notice!;
  const results = await engine.search(input.query, { topK, filter });
  if (results.length === 0) {
    const scope = prefixes.length || input.languageHints?.length ? " with these path/language hints (try without them)" : "";
    return [notice, `No results for "${input.query}"${scope}. Try other words: names of functions, types or concepts in this codebase.`].filter(Boolean).join("\n\n");
  }
  const notes = [notice, status?.keywordOnlyReason ? `(keyword-only search: ${status.keywordOnlyReason})` : null].filter(Boolean);
  const header = [`## search_semantic: "${input.query}" — ${results.length} result(s)`, ...notes].join("\n");
  const fitted = fitSections(header, results.map((r, i) => formatSearchResult(r, i + 1, input.query)), engine.config.openCode.toolTokenBudget);
  if (sessionID) {
    ws.sessionLog.logRetrieval(sessionID, {
      source: "search_semantic",
      query: input.query,
      chunkCount: fitted.included,
      contextTokens: countTokens(fitted.text),
      topScore: results[0]?.score ?? null,
      latencyMs: Date.now() - started,
    });
  }
  return fitted.text;
}
