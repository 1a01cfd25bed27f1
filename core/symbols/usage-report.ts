// The shape of a find-usages answer, completeness first: every file that uses the symbol with
// its count and kinds of use (importers before the definition's neighbours, tests after
// sources), then one page of uses taken round-robin across those files, so one heavy file
// cannot fill the page and hide the others, then what is left and how to page to it.
// Portable: no Node.
import type { Occurrence } from "./usages.js";
import { USE_KINDS, type UseKind } from "./use-kind.js";
import { isTestPath } from "../path-class.js";

export interface FileOccurrences {
  /** Workspace-relative path. */
  path: string;
  language: string;
  /** Sorted by position. */
  occurrences: Occurrence[];
}

export interface FileUsageSummary {
  path: string;
  language: string;
  count: number;
  /** Uses per kind, only kinds that occur, in USE_KINDS order. */
  kinds: Partial<Record<UseKind, number>>;
  /** The file imports or re-exports the symbol (it depends on it from elsewhere). */
  importer: boolean;
  /** A test file by its path. */
  test: boolean;
}

export interface PagedUse {
  path: string;
  occurrence: Occurrence;
}

export interface UsageReport {
  symbol: string;
  /** Uses in all files. */
  total: number;
  /** Every file with a use, in answer order. */
  files: FileUsageSummary[];
  /** The one file the page is limited to, when asked. */
  file?: string;
  /** Index of the page's first use in the paging order. */
  offset: number;
  /** This page's uses, in paging order. */
  page: PagedUse[];
  /** Uses after this page (in `file` alone when it is set), the files they are in, and the file with most of them. */
  remaining: { uses: number; files: number; mostIn?: string };
}

export interface UsagePageOptions {
  /** Uses on the page. */
  limit: number;
  /** Uses to skip in the paging order (default 0). */
  offset?: number;
  /** Page through this file's uses only. */
  file?: string;
}

export function summarizeFile(file: FileOccurrences): FileUsageSummary {
  const counts = new Map<UseKind, number>();
  for (const o of file.occurrences) counts.set(o.use, (counts.get(o.use) ?? 0) + 1);
  const kinds: Partial<Record<UseKind, number>> = {};
  for (const k of USE_KINDS) if (counts.has(k)) kinds[k] = counts.get(k);
  return {
    path: file.path,
    language: file.language,
    count: file.occurrences.length,
    kinds,
    importer: counts.has("import") || counts.has("re-export"),
    test: isTestPath(file.path),
  };
}

/** Sources before tests; within each, files that import the symbol before the ones that do not; then by path. */
function answerOrder(a: FileUsageSummary, b: FileUsageSummary): number {
  return Number(a.test) - Number(b.test) || Number(b.importer) - Number(a.importer) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** Every use in paging order: the first use of each file in answer order, then the second of each, and so on. */
export function roundRobin(files: FileOccurrences[]): PagedUse[] {
  const order: PagedUse[] = [];
  const longest = Math.max(0, ...files.map((f) => f.occurrences.length));
  for (let i = 0; i < longest; i++) {
    for (const f of files) if (i < f.occurrences.length) order.push({ path: f.path, occurrence: f.occurrences[i] });
  }
  return order;
}

/** The report for `files` (files without uses are dropped), with the page `options` ask for. */
export function buildUsageReport(symbol: string, files: FileOccurrences[], options: UsagePageOptions): UsageReport {
  const used = files.filter((f) => f.occurrences.length > 0);
  const summaries = new Map(used.map((f) => [f.path, summarizeFile(f)]));
  const ordered = [...used].sort((a, b) => answerOrder(summaries.get(a.path)!, summaries.get(b.path)!));
  const scope = options.file === undefined ? ordered : ordered.filter((f) => f.path === options.file);
  const sequence = roundRobin(scope);
  const offset = Math.max(0, Math.min(options.offset ?? 0, sequence.length));
  const end = Math.min(sequence.length, offset + Math.max(0, options.limit));
  const rest = sequence.slice(end);
  const left = new Map<string, number>();
  for (const u of rest) left.set(u.path, (left.get(u.path) ?? 0) + 1);
  const mostIn = [...left].reduce<[string, number] | null>((best, entry) => (!best || entry[1] > best[1] ? entry : best), null)?.[0];
  return {
    symbol,
    total: used.reduce((n, f) => n + f.occurrences.length, 0),
    files: ordered.map((f) => summaries.get(f.path)!),
    ...(options.file === undefined ? {} : { file: options.file }),
    offset,
    page: sequence.slice(offset, end),
    remaining: { uses: rest.length, files: left.size, ...(mostIn === undefined ? {} : { mostIn }) },
  };
}
