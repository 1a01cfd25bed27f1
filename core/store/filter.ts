// One definition of what a SearchFilter means, used by every retrieval path (in-memory store,
// LanceDB SQL, keyword index) so that they can never disagree on which chunks match.
// Portable: no Node built-ins.
import type { SearchFilter } from "../types.js";

/** Kind hidden unless a filter asks for it explicitly (F31 quirks are recalled on their own path). */
export const HIDDEN_BY_DEFAULT_KIND = "quirk";

/** The chunk fields a filter looks at. */
export interface FilterableChunk {
  filePath: string;
  language: string;
  kind: string;
}

/** The filter's path prefixes as it matches them (empty ones dropped, written as paths are stored). */
export function pathPrefixesOf(filter?: SearchFilter): string[] {
  return filter?.pathPrefixes?.filter((p) => p.length > 0).map(normalisePrefix) ?? [];
}

/** A filter compiled once per query into a fast predicate. */
export function compileFilter(filter?: SearchFilter): (chunk: FilterableChunk) => boolean {
  const prefixes = pathPrefixesOf(filter);
  const languages = filter?.languages && filter.languages.length > 0 ? new Set(filter.languages) : null;
  const kinds = filter?.kinds && filter.kinds.length > 0 ? new Set(filter.kinds) : null;
  return (chunk) => {
    if (kinds ? !kinds.has(chunk.kind) : chunk.kind === HIDDEN_BY_DEFAULT_KIND) return false;
    if (languages && !languages.has(chunk.language)) return false;
    if (prefixes.length > 0 && !prefixes.some((p) => chunk.filePath.startsWith(p))) return false;
    return true;
  };
}

export function matchesFilter(chunk: FilterableChunk, filter?: SearchFilter): boolean {
  return compileFilter(filter)(chunk);
}

/** `./src\\a` → `src/a`: users type prefixes the way their shell shows them. */
export function normalisePrefix(prefix: string): string {
  let p = prefix.replace(/\\/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  if (p === ".") return "";
  return p;
}

/** A SQL string literal: single quotes doubled, so no value can end the literal early. */
export function sqlString(value: string): string {
  if (value.includes("\u0000")) throw new Error(`search filter value contains a NUL character: ${JSON.stringify(value)}`);
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * The same filter as a LanceDB (DataFusion) `where` clause. Column names are back-quoted
 * because unquoted identifiers are lower-cased by the SQL parser (`filePath` → `filepath`).
 * Prefixes use starts_with() rather than LIKE so that `%` and `_` in paths need no escaping.
 */
export function filterToSql(filter?: SearchFilter): string {
  const clauses: string[] = [];
  const kinds = filter?.kinds?.filter((k) => k.length > 0) ?? [];
  if (kinds.length > 0) clauses.push(`\`kind\` IN (${kinds.map(sqlString).join(", ")})`);
  else clauses.push(`\`kind\` <> ${sqlString(HIDDEN_BY_DEFAULT_KIND)}`);
  const languages = filter?.languages?.filter((l) => l.length > 0) ?? [];
  if (languages.length > 0) clauses.push(`\`language\` IN (${languages.map(sqlString).join(", ")})`);
  const prefixes = pathPrefixesOf(filter);
  if (prefixes.length > 0 && !prefixes.includes("")) {
    clauses.push(`(${prefixes.map((p) => `starts_with(\`filePath\`, ${sqlString(p)})`).join(" OR ")})`);
  }
  return clauses.join(" AND ");
}
