// Builds a docstring query set from a documented code base: the first sentence of a doc
// comment becomes the query, the declaration it documents is the answer, and a copy of the
// tree is written with every selected doc comment replaced by blank lines (so line numbers
// stay and the answer cannot be found by matching the doc text itself).
//
// Deterministic: same tree in, same queries and same stripped copy out.
//
// Usage: node test/eval/docstring-queries.mjs REPO OUT_DIR LANGUAGE NAME [--max N]
//   LANGUAGE: python, javascript, typescript, go, rust, ruby, java, csharp, c or cpp
//   writes OUT_DIR/corpus/ and OUT_DIR/queries.jsonl
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const EXTENSIONS = {
  python: [".py"],
  javascript: [".js", ".mjs", ".cjs"],
  typescript: [".ts", ".mts"],
  go: [".go"],
  rust: [".rs"],
  ruby: [".rb"],
  java: [".java"],
  csharp: [".cs"],
  c: [".c", ".h"],
  cpp: [".cc", ".cpp", ".cxx", ".h", ".hpp", ".hh"],
};

/** The languages a set can be made in. */
export const SET_LANGUAGES = Object.keys(EXTENSIONS);

// Test, example and generated code is not what users ask about, and its comments often
// copy the documented declaration's; keep queries on library code.
const SKIP_PATH = /(^|\/)(tests?|spec|examples?|benches|docs?|testdata|debian|node_modules|dist|vendor|_cookbook|_tutorial|_derive)(\/|$)|_test\.go$|\.test\.[jt]s$|\.d\.ts$/;

function walk(root, dir = root, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(root, full, out);
    else out.push(relative(root, full).split(sep).join("/"));
  }
  return out;
}

/** Doc text → first sentence, stripped of comment markers and markup. */
export function firstSentence(docLines) {
  const para = [];
  for (const raw of docLines) {
    const line = raw.trim();
    if (!line) {
      if (para.length) break;
      continue;
    }
    if (/^[@:]\w+/.test(line) || /^(Args|Arguments|Returns|Parameters|Example|Examples|Raises|Panics|Errors|Safety)\b:?/.test(line)) break;
    if (/^```/.test(line) || /^#\s/.test(line)) break;
    para.push(line);
  }
  let text = para.join(" ");
  text = text
    .replace(/\{@link\s+([^}|\s]+)[^}]*\}/g, "$1")
    .replace(/\[`?([^\]`]+)`?\]\([^)]*\)/g, "$1")
    .replace(/\[`([^\]`]+)`\]/g, "$1")
    .replace(/\[([^\]]+)\]/g, "$1")
    .replace(/:(?:class|meth|func|attr|py:\w+|data|exc|mod|obj):`~?([^`]+)`/g, "$1")
    .replace(/`+/g, "")
    .replace(/\*\*?/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const m = text.match(/^(.+?[.!?])(\s|$)/);
  if (m && m[1].split(" ").length >= 4) text = m[1];
  return text.replace(/[.!?]$/, "").trim();
}

function queryOk(q) {
  const words = q.split(/\s+/).filter(Boolean);
  if (words.length < 4 || words.length > 60) return false;
  if (/^(todo|fixme|xxx|deprecated|see |copyright|license|internal use|@)/i.test(q)) return false;
  if (/https?:\/\//.test(q)) return false;
  const alpha = words.filter((w) => /[a-z]/i.test(w)).length;
  return alpha / words.length >= 0.6;
}

function normWords(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

function splitIdentifier(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((s) => s.toLowerCase());
}

function containsSymbolName(query, symbol) {
  if (!symbol) return false;
  const q = ` ${normWords(query)} `;
  if (q.includes(` ${symbol.toLowerCase()} `)) return true;
  const parts = splitIdentifier(symbol).filter((p) => p.length > 1);
  return parts.length > 1 && parts.every((p) => q.includes(` ${p} `));
}

/** Last line (0-based) of a brace-delimited declaration starting at `start`. */
export function braceEnd(lines, start) {
  let depth = 0;
  let opened = false;
  for (let i = start; i < Math.min(lines.length, start + 3000); i++) {
    // Empty pairs (Go's interface{} / struct{}) never open a body.
    // Char literals ('{') would unbalance the count; lifetimes ('a) never match this shape.
    const line = lines[i].replace(/'(\\.|[^'\\])'/g, "''").replace(/\{\s*\}/g, "");
    let quote = null;
    for (let j = 0; j < line.length; j++) {
      const c = line[j];
      if (quote) {
        if (c === "\\") j++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === "/" && line[j + 1] === "/") break;
      if (c === '"' || c === "`") quote = c;
      else if (c === "{") {
        depth++;
        opened = true;
      } else if (c === "}") {
        depth--;
        if (opened && depth === 0) return i;
      } else if (c === ";" && !opened && depth === 0) return i;
    }
    if (!opened && i > start + 40) return start;
  }
  return start;
}

function indentOf(line) {
  return line.length - line.trimStart().length;
}

export function indentEnd(lines, start, isEnd) {
  const ind = indentOf(lines[start]);
  let last = start;
  // A Python signature may run over several lines, its closing "):" back at the def's indent.
  let from = start;
  if (/^\s*(async\s+)?(def|class)\b/.test(lines[start]) && !isEnd) {
    while (from < lines.length - 1 && !/:\s*(#.*)?$/.test(lines[from])) from++;
    last = from;
  }
  for (let i = from + 1; i < lines.length; i++) {
    const l = lines[i];
    if (!l.trim()) continue;
    if (indentOf(l) <= ind) return isEnd && isEnd(l) && indentOf(l) === ind ? i : last;
    last = i;
  }
  return last;
}

const DECL = {
  javascript: /^\s*(export\s+)?(default\s+)?(async\s+)?(function\*?\s+(\w+)|class\s+(\w+)|(?:static\s+)?(?:get\s+|set\s+)?(?:async\s+)?#?(\w+)\s*\([^)]*\)?\s*\{?\s*$|(?:const|let|var)\s+(\w+)\s*=)/,
  typescript: /^\s*(export\s+)?(default\s+)?(declare\s+)?(abstract\s+)?(async\s+)?(function\*?\s+(\w+)|class\s+(\w+)|interface\s+(\w+)|type\s+(\w+)|enum\s+(\w+)|(?:public\s+|private\s+|protected\s+|static\s+|readonly\s+)*(?:get\s+|set\s+)?(?:async\s+)?(\w+)\s*[(<]|(?:const|let|var)\s+(\w+)\s*[:=])/,
  go: /^(func\s+(?:\([^)]*\)\s*)?(\w+)|type\s+(\w+))/,
  rust: /^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(fn\s+(\w+)|struct\s+(\w+)|enum\s+(\w+)|trait\s+(\w+)|type\s+(\w+)|macro_rules!\s*(\w+))/,
  ruby: /^\s*(def\s+(?:self\.)?([\w?!=]+)|class\s+([\w:]+)|module\s+([\w:]+))/,
  // Types, and methods or constructors: modifiers, then a return type (generic, array,
  // nullable, qualified) unless it is a constructor, then the name and its parameter list.
  java: /^\s*(?:(?:public|protected|private|static|final|abstract|synchronized|native|default|strictfp|sealed|non-sealed)\s+)*(?:(?:class|interface|enum|record|@interface)\s+(\w+)|(?:<[^>]+>\s+)?(?:[\w.]+(?:<[^()]*>)?(?:\[\])*\s+)?(\w+)\s*\()/,
  csharp: /^\s*(?:(?:public|protected|private|internal|static|sealed|abstract|virtual|override|async|partial|readonly|unsafe|extern|new)\s+)*(?:(?:class|interface|struct|enum|record)\s+(\w+)|(?:[\w.]+(?:<[^()]*>)?\??(?:\[\])*\s+)?(\w+)\s*(?:<[^()]*>)?\()/,
  // A type with a body, or a function definition's head: a return type (or none, on the line
  // above in GNU style, or a constructor), the name, its parameters opening, no `;` on the line.
  c: /^(?:\s*(?:typedef\s+)?(?:struct|union|enum)\s+(\w+)\s*\{?\s*$|(?:[A-Za-z_][\w<>:,*&\s]*?[\s*&])?(\w+)\s*\([^;]*$)/,
  cpp: /^\s*(?:template\s*<.*>\s*)?(?:(?:class|struct|union|enum(?:\s+class)?)\s+(?:[A-Z_][A-Z0-9_]*\s+)*(\w+)\s*(?:final\s*)?(?::[^;{]*)?\{?\s*$|(?:[A-Za-z_][\w<>:,*&\s]*?[\s*&])?(~?\w+)\s*\([^;]*$)/,
};

/** Doc lines of one comment → the lines firstSentence reads: Javadoc's inline tags, C#'s summary only. */
function docText(doc, language) {
  if (language === "java") return doc.map((l) => l.replace(/\{@(?:code|literal|linkplain)\s+([^}]*)\}/g, "$1"));
  if (language === "csharp") {
    const text = doc.join("\n");
    const summary = text.match(/<summary>([\s\S]*?)<\/summary>/);
    if (!summary) return [];
    return summary[1].replace(/<(?:see|paramref|typeparamref)\s+\w+="([^"]+)"\s*\/>/g, "$1").split("\n");
  }
  return doc;
}

const KEYWORDS = new Set(["if", "for", "while", "switch", "return", "catch", "function", "new", "super", "constructor", "sizeof", "defined", "do", "else"]);
// Statements that look like a call to the Java and C# patterns (`lock (x)`, `this(…)`).
const CALL_LIKE = new Set([...KEYWORDS, "this", "using", "lock", "foreach", "nameof", "typeof", "sizeof", "throw", "else", "synchronized"]);

function declSymbol(match) {
  const names = match.slice(1).filter((g) => g && /^[\w:?!=]+$/.test(g) && !/^(export|default|async|declare|abstract|pub|const|unsafe)$/.test(g.trim()));
  const name = names.at(-1) ?? "";
  return name.replace(/^.*::/, "");
}

/** Candidates {docStart, docEnd, declStart, declEnd, doc[], symbol} (0-based lines). */
function candidates(lines, language) {
  const out = [];
  if (language === "python") {
    for (let i = 0; i < lines.length; i++) {
      const m = lines[i].match(/^\s*(?:async\s+)?(def|class)\s+(\w+)/);
      if (!m) continue;
      let j = i;
      while (j < lines.length && !/:\s*(#.*)?$/.test(lines[j])) j++;
      let k = j + 1;
      while (k < lines.length && !lines[k].trim()) k++;
      const open = lines[k]?.trim().match(/^[rRuU]?("""|''')/);
      if (!open) continue;
      const q = open[1];
      const rest = lines[k].trim().slice(open[0].length);
      let end = k;
      if (!rest.includes(q)) {
        end = k + 1;
        while (end < lines.length && !lines[end].includes(q)) end++;
        if (end >= lines.length) continue;
      }
      const doc = lines.slice(k, end + 1).map((l) => l.replace(/[rRuU]?("""|''')/g, ""));
      const declEnd = indentEnd(lines, i);
      if (declEnd <= end) continue; // docstring-only body: nothing left to find
      let declStart = i;
      while (declStart > 0 && /^\s*@/.test(lines[declStart - 1])) declStart--;
      out.push({ docStart: k, docEnd: end, declStart, declEnd, doc, symbol: m[2] });
    }
    return out;
  }
  const decl = DECL[language];
  const cFamily = language === "c" || language === "cpp";
  for (let i = 1; i < lines.length; i++) {
    const m = lines[i].match(decl);
    if (!m) continue;
    const symbol = declSymbol(m);
    if (!symbol || (language === "java" || language === "csharp" ? CALL_LIKE : KEYWORDS).has(symbol)) continue;
    // C and C++: a statement in a body (`return make(…`, `else if (…`) is no declaration; C's functions start at column 0.
    if (cFamily && /^\s*(?:return|else|case|goto|throw|delete|co_return|if|while|for|switch)\b/.test(lines[i])) continue;
    if (language === "c" && /^\s/.test(lines[i])) continue;
    // Walk up over attributes / annotations to the doc block.
    let j = i - 1;
    while (j >= 0 && language === "rust" && /^\s*#\[/.test(lines[j])) j--;
    while (j >= 0 && language === "java" && /^\s*@\w+(\(.*\))?\s*$/.test(lines[j])) j--;
    while (j >= 0 && language === "csharp" && /^\s*\[.*\]\s*$/.test(lines[j])) j--;
    // C and C++: a return type on its own line (GNU style), a template's parameters.
    while (j >= 0 && cFamily && /^\s*(?:template\s*<.*>|(?:static\s+|inline\s+|extern\s+)*[A-Za-z_][\w:<>,*&\s]*)\s*$/.test(lines[j]) && !/^\s*(?:return|else)\b/.test(lines[j])) j--;
    if (j < 0) continue;
    let docStart;
    let docEnd;
    let doc;
    const blockComment = language === "javascript" || language === "typescript" || language === "java" || (cFamily && /\*\/\s*$/.test(lines[j]));
    if (blockComment) {
      if (!/\*\/\s*$/.test(lines[j])) continue;
      docEnd = j;
      // Javadoc-style `/**`; C's own `/* … */` too (redis documents its functions so).
      const opener = cFamily ? /\/\*/ : /\/\*\*/;
      while (j >= 0 && !opener.test(lines[j])) j--;
      if (j < 0) continue;
      // A comment trailing a line of code (`#define N 256 /* … */`) documents that line.
      if (cFamily && !/^\s*\/\*/.test(lines[j])) continue;
      docStart = j;
      doc = lines.slice(docStart, docEnd + 1).map((l) => l.replace(/^\s*\/?\*+\/?/, "").replace(/\*\/\s*$/, ""));
    } else {
      const leader =
        language === "go" ? /^\s*\/\/(?!\/)/ : language === "rust" || language === "csharp" ? /^\s*\/\/\// : cFamily ? /^\s*\/\/\/?(?!\/)/ : /^\s*#(?!!)/;
      if (!leader.test(lines[j])) continue;
      docEnd = j;
      while (j >= 0 && leader.test(lines[j])) j--;
      docStart = j + 1;
      doc = lines.slice(docStart, docEnd + 1).map((l) => l.replace(leader, "").replace(/^\//, ""));
      if (language === "go" && /^\s*(\+build|go:)/.test(doc[0] ?? "")) continue;
    }
    const declEnd =
      language === "ruby" ? indentEnd(lines, i, (l) => /^\s*end\b/.test(l)) : braceEnd(lines, i);
    if (declEnd <= i && language !== "go") continue;
    // A C prototype over several lines ends at its `;`: only a definition has a body.
    if (cFamily && !lines.slice(i, declEnd + 1).some((l) => l.includes("{"))) continue;
    out.push({ docStart, docEnd, declStart: docEnd + 1, declEnd, doc, symbol });
  }
  return out;
}

/** Small deterministic PRNG (mulberry32) so sampling never depends on the platform. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function buildDocstringSet({ repo, out, language, repoName, max = 120, seed = 7 }) {
  const exts = EXTENSIONS[language];
  if (!exts) throw new Error(`docstring queries: unsupported language ${language}`);
  const files = walk(repo).filter((f) => exts.includes(extname(f)) && !SKIP_PATH.test(f));
  const texts = new Map(files.map((f) => [f, readFileSync(join(repo, f), "utf8")]));
  const perFile = new Map();
  const seen = new Map();
  for (const f of files) {
    const lines = texts.get(f).split("\n");
    const list = [];
    for (const c of candidates(lines, language)) {
      const query = firstSentence(docText(c.doc, language));
      if (!queryOk(query)) continue;
      const key = normWords(query);
      seen.set(key, (seen.get(key) ?? 0) + 1);
      list.push({ ...c, query, key });
    }
    if (list.length) perFile.set(f, list);
  }
  // Round robin over shuffled files so a few heavily documented files do not dominate.
  const rnd = prng(seed);
  const order = [...perFile.keys()];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const chosen = [];
  for (let round = 0; chosen.length < max; round++) {
    let any = false;
    for (const f of order) {
      const c = perFile.get(f)[round];
      if (!c) continue;
      any = true;
      if (seen.get(c.key) === 1) chosen.push({ file: f, ...c });
      if (chosen.length >= max) break;
    }
    if (!any) break;
  }
  // Blank the selected doc comments in a copy of the tree.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(repo, join(out, "corpus"), { recursive: true });
  const byFile = new Map();
  for (const c of chosen) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  for (const [f, list] of byFile) {
    const lines = texts.get(f).split("\n");
    for (const c of list) for (let i = c.docStart; i <= c.docEnd; i++) lines[i] = "";
    writeFileSync(join(out, "corpus", f), lines.join("\n"));
  }
  // A query whose words still occur verbatim in the stripped corpus gives itself away.
  const stripped = normWords(files.map((f) => readFileSync(join(out, "corpus", f), "utf8")).join("\n"));
  const queries = [];
  for (const c of chosen) {
    if (stripped.includes(c.key)) continue;
    queries.push({
      id: `${repoName}-doc-${String(queries.length + 1).padStart(3, "0")}`,
      query: c.query,
      category: "docstring",
      language,
      repo: repoName,
      relevant: [{ filePath: c.file, startLine: c.declStart + 1, endLine: c.declEnd + 1 }],
      symbol: c.symbol,
      containsSymbolName: containsSymbolName(c.query, c.symbol),
    });
  }
  writeFileSync(join(out, "queries.jsonl"), queries.map((q) => JSON.stringify(q)).join("\n") + "\n");
  return queries;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [repo, out, language, name, flag, max] = process.argv.slice(2);
  if (!repo || !out || !language || !name) {
    console.error("usage: docstring-queries.mjs REPO OUT_DIR LANGUAGE NAME [--max N]");
    process.exit(2);
  }
  const qs = buildDocstringSet({ repo, out, language, repoName: name, max: flag === "--max" ? Number(max) : undefined });
  console.log(`${name}: ${qs.length} docstring queries`);
}
