// Reads a JSONL query file: one {id, query, category, language, repo, relevant} per line.
// Every problem is reported with its line number and what to fix; nothing is skipped silently.
import type { EvalQuery, RelevantSpan } from "./types.js";

export class QueryFileError extends Error {}

function fail(source: string, line: number, problem: string): never {
  throw new QueryFileError(`${source}:${line}: ${problem}`);
}

function parseSpan(source: string, line: number, raw: unknown, index: number): RelevantSpan {
  if (typeof raw !== "object" || raw === null) fail(source, line, `relevant[${index}] must be an object {filePath, startLine?, endLine?}`);
  const r = raw as Record<string, unknown>;
  if (typeof r.filePath !== "string" || r.filePath === "") fail(source, line, `relevant[${index}].filePath must be a non-empty string`);
  const span: RelevantSpan = { filePath: r.filePath };
  const hasStart = r.startLine !== undefined;
  const hasEnd = r.endLine !== undefined;
  if (hasStart !== hasEnd) fail(source, line, `relevant[${index}] needs both startLine and endLine, or neither`);
  if (hasStart) {
    if (!Number.isInteger(r.startLine) || !Number.isInteger(r.endLine) || (r.startLine as number) < 1 || (r.endLine as number) < (r.startLine as number)) {
      fail(source, line, `relevant[${index}] line range must be integers with 1 <= startLine <= endLine`);
    }
    span.startLine = r.startLine as number;
    span.endLine = r.endLine as number;
  }
  return span;
}

/** Parses JSONL text; `source` names the file in error messages. */
export function parseQueryFile(text: string, source = "queries"): EvalQuery[] {
  const out: EvalQuery[] = [];
  const ids = new Set<string>();
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith("//")) return;
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(trimmed);
    } catch {
      fail(source, lineNo, "not valid JSON (one query object per line)");
    }
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) fail(source, lineNo, "each line must be a JSON object");
    if (typeof obj.query !== "string" || !obj.query.trim()) fail(source, lineNo, `"query" must be a non-empty string`);
    const id = obj.id === undefined ? `q${lineNo}` : String(obj.id);
    if (ids.has(id)) fail(source, lineNo, `duplicate id "${id}"`);
    ids.add(id);
    if (!Array.isArray(obj.relevant) || obj.relevant.length === 0) fail(source, lineNo, `"relevant" must be a non-empty array of {filePath, startLine?, endLine?}`);
    out.push({
      id,
      query: obj.query,
      category: typeof obj.category === "string" && obj.category ? obj.category : "uncategorised",
      language: typeof obj.language === "string" && obj.language ? obj.language : "unknown",
      repo: typeof obj.repo === "string" && obj.repo ? obj.repo : "default",
      relevant: obj.relevant.map((s, j) => parseSpan(source, lineNo, s, j)),
      ...(typeof obj.containsSymbolName === "boolean" ? { containsSymbolName: obj.containsSymbolName } : {}),
    });
  });
  if (out.length === 0) throw new QueryFileError(`${source}: no queries found (expected one JSON object per line)`);
  return out;
}
