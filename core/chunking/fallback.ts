// Line fallback (F3): fixed windows of `fallbackLines` lines, each overlapping the previous by
// `overlapLines`, for any text no other chunker understands. Blank edges are trimmed and
// all-blank windows dropped, so every non-blank line still lands in some chunk. Windows of a
// plain-text document (`.rst`, `.txt`, `.adoc`…, a man page) are `paragraph`s, of anything else `lines`.
import type { Chunk } from "../types.js";
import { LineIndex } from "./line-index.js";
import { isPlainTextDocumentPath } from "./document-paths.js";

export interface FallbackOptions {
  fallbackLines: number;
  overlapLines: number;
  maxChars: number;
}

/**
 * A troff man page (`xmonad.1`, `lua.1`, `ls.1.in`) is known by its first line, not by the
 * section number in its name, which scripts named after a version (`… 0.0.2`) end with too: a
 * comment (`.\"`, `'\"`) or the title request of man (`.TH`) or mdoc (`.Dd`).
 */
const TROFF_FIRST_LINE = /^\s*(?:[.']\\"|\.TH\s|\.Dd\s)/;

function isPlainTextDocument(filePath: string, content: string): boolean {
  return isPlainTextDocumentPath(filePath) || TROFF_FIRST_LINE.test(content);
}

export function chunkByLines(filePath: string, language: string, content: string, options: FallbackOptions): Chunk[] {
  const lines = new LineIndex(content);
  const kind = isPlainTextDocument(filePath, content) ? "paragraph" : "lines";
  const size = Math.max(1, Math.floor(options.fallbackLines));
  // An overlap as large as the window would never advance.
  const overlap = Math.min(Math.max(0, Math.floor(options.overlapLines)), size - 1);
  const out: Chunk[] = [];
  for (let start = 0; start < lines.lineCount; start += size - overlap) {
    const end = Math.min(start + size - 1, lines.lineCount - 1);
    const trimmed = lines.trim(start, end);
    if (trimmed) {
      out.push({
        filePath,
        startLine: trimmed[0] + 1,
        endLine: trimmed[1] + 1,
        language,
        kind,
        symbol: "",
        context: "",
        content: lines.slice(trimmed[0], trimmed[1]),
      });
    }
    if (end === lines.lineCount - 1) break;
  }
  return out;
}
