#!/usr/bin/env node
// Authoring aid for the natural query set. Queries are written in
// queries/natural.authoring.jsonl where an answer may name a declaration instead of lines:
//   {"filePath": "urllib3/util/retry.py", "symbol": "Retry.get_backoff_time"}
// This script finds that declaration in the fetched corpus and writes queries/natural.jsonl
// with concrete line ranges, failing loudly when a symbol or file cannot be found (so a
// wrong answer never slips in silently).
//
// Usage: node test/eval/resolve-spans.mjs   (after fetch-corpora.mjs)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { braceEnd, indentEnd } from "./docstring-queries.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cache = join(here, "..", ".cache", "eval");

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function declRegex(language, name) {
  const n = escape(name);
  switch (language) {
    case "python":
      return new RegExp(`^\\s*(async\\s+)?(def|class)\\s+${n}\\b`);
    case "go":
      return new RegExp(`^(func\\s+(\\([^)]*\\)\\s*)?${n}\\b|type\\s+${n}\\b|\\s*${n}\\s*=)`);
    case "rust":
      return new RegExp(`^\\s*(pub(\\([^)]*\\))?\\s+)?(const\\s+)?(unsafe\\s+)?(fn|struct|enum|trait|type|mod|macro_rules!)\\s*${n}\\b|^\\s*impl(<[^>]*>)?\\s+(\\S+\\s+for\\s+)?${n}\\b`);
    case "ruby":
      return new RegExp(`^\\s*(def\\s+(self\\.)?${n}(?=[\\s(;]|$)|class\\s+${n}\\b|module\\s+${n}\\b)`);
    default:
      return new RegExp(`^\\s*(export\\s+)?(default\\s+)?(abstract\\s+)?(async\\s+)?(function\\*?\\s+${n}\\b|class\\s+${n}\\b|interface\\s+${n}\\b|type\\s+${n}\\b|enum\\s+${n}\\b|(const|let|var)\\s+${n}\\b|(static\\s+|private\\s+|public\\s+|protected\\s+|get\\s+|set\\s+|async\\s+)*#?${n}\\s*(<[^>]*>)?\\((.*\\)[^;]*\\{|[^)]*)\\s*$)`);
  }
}

function endOf(lines, start, language) {
  if (language === "python") return indentEnd(lines, start);
  if (language === "ruby") return indentEnd(lines, start, (l) => /^\s*end\b/.test(l));
  return braceEnd(lines, start);
}

function resolve(repo, language, span, id) {
  const file = join(cache, repo, "repo", span.filePath);
  if (!existsSync(file)) throw new Error(`${id}: ${repo}/${span.filePath} does not exist`);
  if (!span.symbol) {
    const out = { filePath: span.filePath };
    if (span.startLine) Object.assign(out, { startLine: span.startLine, endLine: span.endLine });
    return out;
  }
  const lines = readFileSync(file, "utf8").split("\n");
  let from = 0;
  let to = lines.length - 1;
  const parts = span.symbol.split(".");
  let start = -1;
  for (const part of parts) {
    const re = declRegex(language, part);
    start = -1;
    for (let i = from; i <= to; i++) {
      if (re.test(lines[i])) {
        start = i;
        break;
      }
    }
    if (start < 0) throw new Error(`${id}: symbol ${span.symbol} not found in ${repo}/${span.filePath}`);
    from = start;
    to = Math.max(start, endOf(lines, start, language));
  }
  return { filePath: span.filePath, startLine: from + 1, endLine: to + 1 };
}

const src = readFileSync(join(here, "queries", "natural.authoring.jsonl"), "utf8").split("\n").filter((l) => l.trim());
const out = [];
const errors = [];
for (const line of src) {
  const q = JSON.parse(line);
  try {
    out.push({ ...q, relevant: q.relevant.map((s) => resolve(q.repo, q.language, s, q.id)) });
  } catch (err) {
    errors.push(err.message);
  }
}
if (errors.length) {
  console.error(errors.join("\n"));
  process.exit(1);
}
writeFileSync(join(here, "queries", "natural.jsonl"), out.map((q) => JSON.stringify(q)).join("\n") + "\n");
const by = (k) => Object.entries(out.reduce((m, q) => ((m[q[k]] = (m[q[k]] ?? 0) + 1), m), {})).map(([a, b]) => `${a} ${b}`).join(", ");
console.log(`${out.length} natural queries; ${by("category")}; ${by("repo")}`);
