// Which lines of a long chunk a result shows. A pack of a file's small units (core/chunking/pack.ts)
// runs to ~60 lines and a host shows 3 (the CLI) to 24 (the agent's tool) of them: the first
// lines are often another unit, an import block or a licence header, while the lines the query
// matched sit further down. The window moves there only when that shows more of the query's
// words than the chunk's head does, and then starts where a block opens.
// Portable: no Node built-ins.
import { distinctTerms } from "../keyword/tokenize.js";
import { analyseQuery } from "./query-analysis.js";

/** Lines `start` (inclusive) to `end` (exclusive) of a chunk's content, 0-based. */
export interface LineWindow {
  start: number;
  end: number;
}

/** The chunk's content split into lines, without the newlines a chunk may end with. */
export function contentLines(content: string): string[] {
  return content.replace(/\n+$/, "").split("\n");
}

/**
 * Up to `maxLines` of `lines` (a chunk's, `contentLines`) that show the most of the query's
 * words: the head of the chunk unless a window starting where a block opens (a declaration, a
 * nested block of a long body) holds words the head lacks. A line that opens a block counts its
 * words twice, since the unit it opens is what the query is about. A window near the chunk's end
 * is shorter rather than starting inside the unit before.
 */
export function previewWindow(lines: readonly string[], query: string, maxLines: number): LineWindow {
  const n = lines.length;
  const head = { start: 0, end: Math.min(n, maxLines) };
  const terms = analyseQuery(query).terms;
  if (n <= maxLines || terms.length === 0) return head;
  const wanted = new Map(terms.map((t, i) => [t, i]));
  const opens = blockOpeners(lines);
  // Term t on a line counts as t; on a block's opening line also as t + terms.length.
  const evidence = lines.map((line, i) => {
    const matched = matchedTerms(line, wanted);
    return opens[i] ? [...matched, ...matched.map((t) => t + terms.length)] : matched;
  });
  const start = bestWindow(evidence, opens, 2 * terms.length, maxLines);
  return { start, end: Math.min(n, start + maxLines) };
}

/** Indices (into the query's terms) of the terms a line holds. */
function matchedTerms(line: string, wanted: ReadonlyMap<string, number>): number[] {
  if (line.trim() === "") return [];
  const out: number[] = [];
  for (const term of distinctTerms(line)) {
    const i = wanted.get(term);
    if (i !== undefined) out.push(i);
  }
  return out;
}

/**
 * The start of the window holding the most distinct evidence, among the head and the windows that
 * start where a block opens; among equals the head, else the window with more matching lines,
 * else one whose first line matches (not a neighbour's lines above the match), else the earlier.
 */
function bestWindow(evidence: readonly number[][], opens: readonly boolean[], kinds: number, size: number): number {
  const counts = new Int32Array(kinds);
  let distinct = 0;
  let matchingLines = 0;
  const add = (line: number, by: 1 | -1): void => {
    const found = evidence[line];
    if (found.length > 0) matchingLines += by;
    for (const t of found) {
      if (by === 1 && counts[t]++ === 0) distinct++;
      if (by === -1 && --counts[t] === 0) distinct--;
    }
  };
  const n = evidence.length;
  for (let i = 0; i < Math.min(n, size); i++) add(i, 1);
  let best = 0;
  let bestDistinct = distinct;
  let bestLines = matchingLines;
  let bestStartsWithMatch = false;
  for (let start = 1; start < n; start++) {
    add(start - 1, -1);
    if (start + size - 1 < n) add(start + size - 1, 1);
    if (!opens[start]) continue;
    const startsWithMatch = evidence[start].length > 0;
    let better: boolean;
    if (distinct !== bestDistinct) better = distinct > bestDistinct;
    else if (best === 0) better = false; // the head keeps a tie
    else if (matchingLines !== bestLines) better = matchingLines > bestLines;
    else better = startsWithMatch && !bestStartsWithMatch;
    if (better) {
      best = start;
      bestDistinct = distinct;
      bestLines = matchingLines;
      bestStartsWithMatch = startsWithMatch;
    }
  }
  return best;
}

/**
 * Which lines open a block: the next non-blank line is indented deeper. A brace alone on its
 * line (`{` under `public void Save()`, C#'s and C++'s usual layout) is passed over, so the
 * declaration above it opens the block, not the brace.
 */
function blockOpeners(lines: readonly string[]): boolean[] {
  const opens = new Array<boolean>(lines.length).fill(false);
  let nextIndent = -1; // of the nearest non-blank line below that is not a lone brace; -1: none
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = lines[i].trim();
    if (text === "" || text === "{") continue;
    const own = indentOf(lines[i]);
    opens[i] = nextIndent > own;
    nextIndent = own;
  }
  return opens;
}

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  return i;
}
