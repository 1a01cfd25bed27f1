// The counting rules of the agent-tokens benchmark section (sections/agent-tokens.mjs), kept
// pure so a test pins them: what OpenCode's grep and read tools would print (their output
// format and limits, reproduced here), and how many tokens an agent spends before the code of
// the first relevant file of a query is in its context, by grep + read and by search_semantic.

/** OpenCode's grep tool shows at most this many matching lines. */
export const GREP_LIMIT = 100;
/** ripgrep's match text is cut at this many characters (then "..."). */
export const GREP_LINE_CHARS = 2000;
/** OpenCode's read tool: default window in lines, longest line, and the byte cap of one answer. */
export const READ_LIMIT = 2000;
export const READ_LINE_CHARS = 2000;
export const READ_MAX_BYTES = 50 * 1024;

export interface SourceFile {
  /** Path relative to the searched root, forward slashes. */
  rel: string;
  text: string;
}

export interface Target {
  /** Repository-relative path as the annotations give it. */
  path: string;
  start: number | null;
  end: number | null;
}

export interface GrepMatch {
  rel: string;
  line: number;
  text: string;
}

export type CountTokens = (text: string) => number;

/** The lines of a file as a line reader yields them: "\n" or "\r\n" ends a line, a final newline adds none. */
export function fileLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A case-insensitive pattern matching any of the words (plain substrings, as `rg -i 'a|b'`). */
export function grepPattern(words: string[]): RegExp | null {
  const ws = words.filter(Boolean);
  return ws.length ? new RegExp(ws.map(escapeRegExp).join("|"), "i") : null;
}

/** Every matching line of every file, files in the given order, lines in file order. */
export function grepAll(files: SourceFile[], pattern: RegExp): GrepMatch[] {
  const out: GrepMatch[] = [];
  for (const f of files) {
    const lines = fileLines(f.text);
    for (let i = 0; i < lines.length; i++) if (pattern.test(lines[i])) out.push({ rel: f.rel, line: i + 1, text: lines[i] });
  }
  return out;
}

/** OpenCode's grep answer for `matches`: the first 100, grouped under each file's absolute path. */
export function formatGrep(matches: GrepMatch[], absPath: (rel: string) => string): string {
  if (matches.length === 0) return "No files found";
  const shown = matches.slice(0, GREP_LIMIT);
  const truncated = matches.length > GREP_LIMIT;
  const out = [`Found ${shown.length} matches${truncated ? " (more matches available)" : ""}`];
  let current = "";
  for (const m of shown) {
    if (m.rel !== current) {
      if (current !== "") out.push("");
      current = m.rel;
      out.push(`${absPath(m.rel)}:`);
    }
    const text = m.text.length > GREP_LINE_CHARS ? m.text.slice(0, GREP_LINE_CHARS) + "..." : m.text;
    out.push(`  Line ${m.line}: ${text}`);
  }
  if (truncated) out.push("", "(Results truncated. Consider using a more specific path or pattern.)");
  return out.join("\n");
}

export interface ReadWindow {
  output: string;
  /** First and last line shown (last < first when nothing was). */
  first: number;
  last: number;
  /** Whether lines after `last` exist. */
  more: boolean;
}

/** OpenCode's read answer for a file from line `offset` (1-based): 2000 lines or 50 KB, numbered. */
export function formatRead(absPath: string, text: string, offset = 1, limit = READ_LIMIT): ReadWindow {
  const lines = fileLines(text);
  const raw: string[] = [];
  let bytes = 0;
  let cut = false;
  for (let i = offset - 1; i < lines.length && raw.length < limit; i++) {
    const line = lines[i].length > READ_LINE_CHARS ? `${lines[i].slice(0, READ_LINE_CHARS)}... (line truncated to ${READ_LINE_CHARS} chars)` : lines[i];
    const size = Buffer.byteLength(line, "utf8") + (raw.length > 0 ? 1 : 0);
    if (bytes + size > READ_MAX_BYTES) {
      cut = true;
      break;
    }
    raw.push(line);
    bytes += size;
  }
  const last = offset + raw.length - 1;
  const more = cut || last < lines.length;
  let output = `<path>${absPath}</path>\n<type>file</type>\n<content>\n`;
  output += raw.map((l, i) => `${i + offset}: ${l}`).join("\n");
  if (cut) output += `\n\n(Output capped at ${READ_MAX_BYTES / 1024} KB. Showing lines ${offset}-${last}. Use offset=${last + 1} to continue.)`;
  else if (more) output += `\n\n(Showing lines ${offset}-${last} of ${lines.length}. Use offset=${last + 1} to continue.)`;
  else output += `\n\n(End of file - total ${lines.length} lines)`;
  output += "\n</content>";
  return { output, first: offset, last, more };
}

/** Whether a file (repository-relative) is the target's file: equal, or ending in the target's path. */
export function isTargetFile(repoRel: string, target: Target): boolean {
  const t = target.path.replace(/^(\.\/)+/, "");
  return repoRel === t || repoRel.endsWith(`/${t}`);
}

/**
 * Reads `text` window by window from `offset` until the target's span lies inside the lines read
 * so far (a target without a span needs one window); then from line 1 when the span starts
 * before `offset`. Returns the tokens of every window read.
 */
export function readUntilCovered(absPath: string, text: string, target: Target, offset: number, count: CountTokens): number {
  const covered = (a: number, b: number) => target.start === null || target.end === null || (target.start >= a && target.end <= b);
  let tokens = 0;
  const readFrom = (from: number): boolean => {
    for (let at = from; ; ) {
      const w = formatRead(absPath, text, at);
      tokens += count(w.output);
      if (covered(from, w.last)) return true;
      if (!w.more || w.last < at) return false;
      at = w.last + 1;
    }
  };
  if (!readFrom(offset) && offset > 1) readFrom(1);
  return tokens;
}

export interface GrepReadResult {
  /** Tokens until the relevant code was read; Infinity when no matching file is a target. */
  tokens: number;
  grepTokens: number;
  filesRead: number;
  matchingFiles: number;
  found: string | null;
}

/**
 * grep + read: one grep of the query's content words, then the matching files read in order
 * of their match count (most first; ties in path order), the first window of each, until a
 * target's file comes up; for it, windows are read until the target's span (if any) is inside.
 */
export function grepRead(opts: {
  files: SourceFile[];
  words: string[];
  targets: Target[];
  /** Repository-relative path of a root-relative one (the benchmark root's prefix). */
  repoRel: (rel: string) => string;
  absPath: (rel: string) => string;
  count: CountTokens;
  /** Tokens of a file's first read window, memoised by the caller across queries. */
  firstWindowTokens?: (f: SourceFile) => number;
}): GrepReadResult {
  const { files, targets, count } = opts;
  const pattern = grepPattern(opts.words);
  const matches = pattern ? grepAll(files, pattern) : [];
  const grepTokens = count(formatGrep(matches, opts.absPath));
  const perFile = new Map<string, number>();
  for (const m of matches) perFile.set(m.rel, (perFile.get(m.rel) ?? 0) + 1);
  const order = [...perFile.keys()].map((rel, i) => ({ rel, n: perFile.get(rel)!, i })).sort((a, b) => b.n - a.n || a.i - b.i);
  const byRel = new Map(files.map((f) => [f.rel, f]));
  let tokens = grepTokens;
  let filesRead = 0;
  for (const { rel } of order) {
    const f = byRel.get(rel)!;
    filesRead++;
    const target = targets.find((t) => isTargetFile(opts.repoRel(rel), t));
    if (target) {
      // Several targets in one file: the cheapest one to cover.
      const costs = targets.filter((t) => isTargetFile(opts.repoRel(rel), t)).map((t) => readUntilCovered(opts.absPath(rel), f.text, t, 1, count));
      tokens += Math.min(...costs);
      return { tokens, grepTokens, filesRead, matchingFiles: order.length, found: rel };
    }
    tokens += opts.firstWindowTokens ? opts.firstWindowTokens(f) : count(formatRead(opts.absPath(rel), f.text).output);
  }
  return { tokens: Infinity, grepTokens, filesRead, matchingFiles: order.length, found: null };
}

export interface ShownHit {
  /** Root-relative path of the hit's file. */
  rel: string;
  startLine: number;
  endLine: number;
  /** Lines of the chunk the search output shows (its preview). */
  shownFirst: number;
  shownLast: number;
}

export interface SearchCostResult {
  tokens: number;
  searchTokens: number;
  /** "output": the relevant code is in the search answer; "read": plus a read of the hit's file; "grep": no relevant hit shown, grep + read after it; "none": not found at all. */
  how: "output" | "read" | "grep" | "none";
  rank: number | null;
}

const overlaps = (hit: ShownHit, t: Target) => t.start === null || t.end === null || !(hit.endLine < t.start || hit.startLine > t.end);

/**
 * search_semantic: its answer, then, when the relevant code is not in it, a read of the
 * best-ranked relevant hit's file from the hit's first line (until the span is inside); when no
 * shown hit is relevant, grep + read's cost on top. `alwaysRead` also reads the hit's file when
 * the answer already holds it (the stricter variant).
 */
export function searchThenRead(opts: {
  searchOutput: string;
  shown: ShownHit[];
  targets: Target[];
  repoRel: (rel: string) => string;
  absPath: (rel: string) => string;
  fileText: (rel: string) => string | undefined;
  count: CountTokens;
  grepRead: () => GrepReadResult;
  alwaysRead?: boolean;
}): SearchCostResult {
  const searchTokens = opts.count(opts.searchOutput);
  for (let i = 0; i < opts.shown.length; i++) {
    const hit = opts.shown[i];
    const target = opts.targets.find((t) => isTargetFile(opts.repoRel(hit.rel), t) && overlaps(hit, t));
    if (!target) continue;
    const inOutput = target.start === null || target.end === null || (target.start >= hit.shownFirst && target.end <= hit.shownLast);
    if (inOutput && !opts.alwaysRead) return { tokens: searchTokens, searchTokens, how: "output", rank: i + 1 };
    const text = opts.fileText(hit.rel) ?? "";
    const read = readUntilCovered(opts.absPath(hit.rel), text, target, hit.startLine, opts.count);
    return { tokens: searchTokens + read, searchTokens, how: "read", rank: i + 1 };
  }
  const g = opts.grepRead();
  return { tokens: searchTokens + g.tokens, searchTokens, how: Number.isFinite(g.tokens) ? "grep" : "none", rank: null };
}

/** Nearest-rank quantile of a sample (Infinity sorts last). */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

export function shareWithin(xs: number[], budget: number): number {
  return xs.length ? xs.filter((x) => x <= budget).length / xs.length : 0;
}
