// Shared by the text chunkers (Markdown, LaTeX, Razor, .sln): a file is cut at marker lines
// into sections; a section too big is cut at paragraph (blank-line) boundaries, then by lines;
// tiny unnamed pieces (a preamble, a stray line) join their neighbour.
import type { Chunk } from "../types.js";
import { fits, LineIndex, splitByLines, type Limits } from "./line-index.js";

export interface SectionMarker {
  /** 0-based row where the section starts; it runs to the row before the next marker. */
  row: number;
  kind: string;
  symbol: string;
  context: string;
}

interface Piece {
  start: number;
  end: number;
  kind: string;
  symbol: string;
  context: string;
  named: boolean;
}

/** Rows covered by markers, in order; rows before the first marker form a `preamble`. */
export function chunkSections(
  filePath: string,
  language: string,
  lines: LineIndex,
  markers: SectionMarker[],
  limits: Limits,
  preferredCuts: ReadonlySet<number> = new Set(),
): Chunk[] {
  const sorted = [...markers].sort((x, y) => x.row - y.row);
  const pieces: Piece[] = [];
  const add = (a: number, b: number, kind: string, symbol: string, context: string, named: boolean) => {
    const t = lines.trim(a, b);
    if (!t) return;
    for (const [s, e] of cutAtParagraphs(lines, t[0], t[1], limits, preferredCuts)) pieces.push({ start: s, end: e, kind, symbol, context, named });
  };
  const first = sorted.length ? sorted[0].row : lines.lineCount;
  if (first > 0) add(0, first - 1, "preamble", "", "", false);
  sorted.forEach((m, i) => {
    const end = i + 1 < sorted.length ? sorted[i + 1].row - 1 : lines.lineCount - 1;
    add(m.row, end, m.kind, m.symbol, m.context, m.symbol !== "");
  });
  return mergeUnnamed(pieces, lines, limits).map((p) => ({
    filePath,
    startLine: p.start + 1,
    endLine: p.end + 1,
    language,
    kind: p.kind,
    symbol: p.symbol,
    context: p.context,
    content: lines.slice(p.start, p.end),
  }));
}

/**
 * Rows a..b cut into pieces that fit, preferring cuts before a `preferred` row (a sub-heading),
 * then before a paragraph starts.
 */
export function cutAtParagraphs(
  lines: LineIndex,
  a: number,
  b: number,
  limits: Limits,
  preferred: ReadonlySet<number> = new Set(),
): Array<[number, number]> {
  if (fits(lines, a, b, limits)) return [[a, b]];
  const out: Array<[number, number]> = [];
  let start = a;
  let lastBreak = -1; // the last row that starts a paragraph inside the current piece
  let lastPreferred = -1;
  // Invariant: before row is added, rows start..row-1 fit.
  for (let row = a; row <= b; row++) {
    if (row > start && !lines.isBlank(row) && lines.isBlank(row - 1)) lastBreak = row;
    if (row > start && preferred.has(row)) lastPreferred = row;
    while (start <= row && !fits(lines, start, row, limits)) {
      if (lastPreferred > start) {
        out.push([start, lastPreferred - 1]);
        start = lastPreferred;
        if (lastBreak < start) lastBreak = -1;
        lastPreferred = -1;
        continue;
      }
      if (lastBreak > start) {
        out.push([start, lastBreak - 1]);
        start = lastBreak;
      } else if (row > start) {
        out.push([start, row - 1]);
        start = row;
      } else {
        out.push([row, row]); // one line longer than maxChars: it stays whole
        start = row + 1;
      }
      lastBreak = -1;
    }
  }
  if (start <= b) out.push([start, b]);
  const trimmed: Array<[number, number]> = [];
  for (const [s, e] of out) {
    const t = lines.trim(s, e);
    if (t) trimmed.push(t);
  }
  return trimmed;
}

function mergeUnnamed(pieces: Piece[], lines: LineIndex, limits: Limits): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    const tiny = lines.chars(p.start, p.end) < limits.minChars;
    const next = pieces[i + 1];
    const prev = out[out.length - 1];
    if (tiny && !p.named && next && fits(lines, p.start, next.end, limits)) {
      // A tiny unnamed piece opens the next section (a title line, an @page directive).
      pieces[i + 1] = { ...next, start: p.start };
    } else if (tiny && !p.named && prev && fits(lines, prev.start, p.end, limits)) {
      out[out.length - 1] = { ...prev, end: p.end };
    } else {
      out.push(p);
    }
  }
  return out;
}
