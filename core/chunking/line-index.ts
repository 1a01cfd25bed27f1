// Line arithmetic over one file's text: every chunker works in 0-based rows internally and
// reports 1-based inclusive lines. Precomputing line offsets makes "how many characters are
// rows a..b" O(1), which keeps oversize checks cheap on large files.

export class LineIndex {
  /** Character offset where each row starts; one extra entry marks the end of the text. */
  private readonly starts: number[];
  readonly lineCount: number;

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    // A trailing newline does not open a new line.
    if (starts.length > 1 && starts[starts.length - 1] === text.length) starts.pop();
    this.lineCount = text.length === 0 ? 0 : starts.length;
    // Sentinel: where a next line would start, so every row ends one before its successor.
    starts.push(text.endsWith("\n") ? text.length : text.length + 1);
    this.starts = starts;
  }

  /** Characters in rows a..b inclusive (newlines included). */
  chars(a: number, b: number): number {
    return this.starts[b + 1] - this.starts[a];
  }

  /** The exact text of rows a..b inclusive, without the last row's line ending (CRLF inside stays). */
  slice(a: number, b: number): string {
    const s = this.text.slice(this.starts[a], Math.min(this.starts[b + 1] - 1, this.text.length));
    return s.endsWith("\r") ? s.slice(0, -1) : s;
  }

  /** One row's text without its line ending, for pattern matching. */
  line(row: number): string {
    return this.slice(row, row);
  }

  isBlank(row: number): boolean {
    const from = this.starts[row];
    const to = Math.min(this.starts[row + 1] - 1, this.text.length);
    for (let i = from; i < to; i++) {
      const c = this.text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
    }
    return true;
  }

  /** Narrows a..b to its first and last non-blank rows; null when all blank. */
  trim(a: number, b: number): [number, number] | null {
    while (a <= b && this.isBlank(a)) a++;
    while (b >= a && this.isBlank(b)) b--;
    return a <= b ? [a, b] : null;
  }
}

/** Size limits every chunker respects. */
export interface Limits {
  maxLines: number;
  maxChars: number;
  minChars: number;
  /** Neighbouring pieces of one parent share a chunk up to this many characters (0: never). */
  packChars?: number;
}

export function fits(lines: LineIndex, a: number, b: number, limits: Limits): boolean {
  return b - a + 1 <= limits.maxLines && lines.chars(a, b) <= limits.maxChars;
}

/**
 * Cuts rows a..b into consecutive pieces that fit the limits, by line count and size only.
 * Used when no better boundary exists (one huge statement, plain text). A single line longer
 * than maxChars stays whole: chunks are always whole lines.
 */
export function splitByLines(lines: LineIndex, a: number, b: number, limits: Limits): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = a;
  while (start <= b) {
    let end = start;
    while (end < b && fits(lines, start, end + 1, limits)) end++;
    out.push([start, end]);
    start = end + 1;
  }
  return out;
}
