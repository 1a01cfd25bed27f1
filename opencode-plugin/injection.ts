// Context appended to a user message (F21): a file list (≤10 files: path, language, line
// ranges) or full chunks, retrieved with query = last assistant text + current prompt, fitted
// to openCode.injectTokenBudget. Returns null when there is nothing worth appending.
import type { SearchResult } from "../core/types.js";
import { countTokens } from "../core/telemetry/tokens.js";
import { fence, fitSections } from "./format.js";
import type { RagWorkspace } from "./workspace.js";

export type InjectionMode = "files" | "chunks";

export const MAX_INJECTED_FILES = 10;

export interface Injection {
  text: string;
  chunkCount: number;
  tokens: number;
  topScore: number | null;
}

/** The retrieval query: the previous assistant answer gives the prompt its context. */
export function injectionQuery(lastAssistantText: string | undefined, prompt: string): string {
  const assistant = (lastAssistantText ?? "").trim();
  // Long answers drown the prompt in the embedding: keep their end, where the open question is.
  const tail = assistant.length > 1500 ? assistant.slice(-1500) : assistant;
  return tail ? `${tail}\n${prompt.trim()}` : prompt.trim();
}

/** Ranges this close (a blank line or two between chunks) read as one. */
const RANGE_GAP = 2;

/** Merges overlapping or nearly adjacent line ranges: "10-42, 50-60". */
function lineRanges(results: SearchResult[]): string {
  const ranges = results.map((r) => [r.chunk.startLine, r.chunk.endLine] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of ranges) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1] + 1 + RANGE_GAP) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged.map(([s, e]) => (s === e ? `${s}` : `${s}-${e}`)).join(", ");
}

/** "src/a.ts (typescript, lines 10-42)" lines, best file first, at most 10 files. */
export function formatFileList(results: SearchResult[]): string[] {
  const byFile = new Map<string, SearchResult[]>();
  for (const r of results) {
    if (r.chunk.kind === "quirk") continue;
    const list = byFile.get(r.chunk.filePath) ?? [];
    list.push(r);
    byFile.set(r.chunk.filePath, list);
  }
  return [...byFile.entries()]
    .sort((a, b) => Math.max(...b[1].map((r) => r.score)) - Math.max(...a[1].map((r) => r.score)))
    .slice(0, MAX_INJECTED_FILES)
    // An image has no lines worth naming.
    .map(([path, rs]) => (rs[0].chunk.kind === "image" ? `${path} (image)` : `${path} (${rs[0].chunk.language}, lines ${lineRanges(rs)}${rs[0].origin ? `, ${rs[0].origin}` : ""})`));
}

export async function buildInjection(ws: RagWorkspace, query: string, mode: InjectionMode): Promise<Injection | null> {
  if (!query.trim()) return null;
  const engine = await ws.engine();
  const cfg = engine.config;
  const topK = mode === "files" ? Math.min(cfg.retrieval.maxChunks, Math.max(cfg.retrieval.topK, MAX_INJECTED_FILES)) : cfg.openCode.maxContextChunks;
  const results = (await engine.search(query, { topK })).filter((r) => r.chunk.kind !== "quirk");
  if (results.length === 0) return null;
  const budget = cfg.openCode.injectTokenBudget;
  let fitted;
  if (mode === "files") {
    const lines = formatFileList(results);
    fitted = fitSections("Files related to this message (opencode-rag):", lines, budget, { separator: "\n", omittedNote: () => "" });
  } else {
    const sections = results.map((r) => {
      const c = r.chunk;
      return `### ${c.filePath}:${c.startLine}-${c.endLine} (${c.language}${c.symbol ? `, ${c.kind} ${c.symbol}` : ""}${r.origin ? `, ${r.origin}` : ""})\n${fence(c.content, c.language)}`;
    });
    fitted = fitSections("Code related to this message (opencode-rag):", sections, budget, { omittedNote: (n) => `_${n} more chunk(s) left out (token budget)._` });
  }
  const text = fitted.text.replace(/\n+$/, "");
  return { text, chunkCount: fitted.included, tokens: countTokens(text), topScore: results[0]?.score ?? null };
}
