// Pulls documented units out of source files: for every function/method/class/type that
// carries a doc comment, the doc text and the code without it. Line-based heuristics, not
// a parser: training data tolerates a few imperfect units, and this runs on any language
// without grammars. Each language states where docs live and how a body ends.

const DECL = {
  js: /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:public\s+|private\s+|protected\s+|static\s+|readonly\s+|abstract\s+|override\s+)*(?:async\s+)?(?:function\s*\*?\s*([A-Za-z_$][\w$]*)|class\s+([A-Za-z_$][\w$]*)|interface\s+([A-Za-z_$][\w$]*)|type\s+([A-Za-z_$][\w$]*)\s*[=<]|enum\s+([A-Za-z_$][\w$]*)|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)|(?:get\s+|set\s+)?\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*$|([A-Za-z_$][\w$.]*)\s*=\s*function\b|([A-Za-z_$][\w$]*)\s*:\s*function\b)/,
  go: /^\s*(?:func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)|type\s+([A-Za-z_]\w*)\s+(?:struct|interface|func)\b)/,
  rs: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+|extern\s+"[^"]*"\s+)*(?:fn\s+([A-Za-z_]\w*)|struct\s+([A-Za-z_]\w*)|enum\s+([A-Za-z_]\w*)|trait\s+([A-Za-z_]\w*)|impl\b[^{]*?\bfor\s+([A-Za-z_]\w*))/,
  rb: /^\s*(?:def\s+(?:self\.)?([A-Za-z_]\w*[?!=]?)|class\s+([A-Z]\w*(?:::\w+)*)|module\s+([A-Z]\w*(?:::\w+)*))/,
  py: /^(\s*)(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/,
};

const JS_KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "return", "function", "with", "super", "constructor"]);

export function languageOf(path) {
  if (/\.min\.js$/.test(path)) return null;
  if (/\.(?:[cm]?js|jsx|[cm]?ts|tsx)$/.test(path)) return "js";
  if (/\.go$/.test(path)) return "go";
  if (/\.rs$/.test(path)) return "rs";
  if (/\.rb$/.test(path)) return "rb";
  if (/\.py$/.test(path)) return "py";
  return null;
}

function firstGroup(m) {
  for (let i = 1; i < m.length; i++) if (m[i]) return m[i];
  return "";
}

/** Removes string and comment contents so that brace counting is not fooled by them. */
function codeOnly(line) {
  return line
    .replace(/\/\/.*$/, "")
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

/** Index of the last line of a brace-delimited unit starting at `start`, or -1. */
function braceEnd(lines, start, maxLines) {
  let depth = 0;
  let opened = false;
  for (let i = start; i < lines.length && i < start + maxLines; i++) {
    const l = codeOnly(lines[i]);
    for (const ch of l) {
      if (ch === "{") {
        depth++;
        opened = true;
      } else if (ch === "}") depth--;
    }
    if (opened && depth <= 0) return i;
    // a declaration without a body (d.ts, interface member, Go/Rust forward decl)
    if (!opened && /;\s*$/.test(l)) return i;
  }
  return -1;
}

function rubyEnd(lines, start, maxLines) {
  const indent = lines[start].match(/^\s*/)[0].length;
  if (/\bend\s*$/.test(lines[start]) || /^\s*def\s+[^=]*=\s*\S/.test(lines[start])) return start;
  for (let i = start + 1; i < lines.length && i < start + maxLines; i++) {
    const l = lines[i];
    if (!l.trim()) continue;
    const ind = l.match(/^\s*/)[0].length;
    if (ind === indent && /^\s*end\b/.test(l)) return i;
    if (ind < indent) return -1;
  }
  return -1;
}

function cleanDoc(raw) {
  let text = raw
    .replace(/\{@\w+\s+([^}|]+?)(?:\|[^}]*)?\}/g, "$1") // {@link Foo} → Foo
    .replace(/<\/?[a-zA-Z][^>]*>/g, " ") // html tags
    .replace(/`/g, "");
  // JSDoc-style tags end the description
  const tag = text.search(/(^|\n)\s*@\w+/);
  if (tag >= 0) text = text.slice(0, tag);
  // first paragraph only: the summary a person would write as a query
  const para = text.split(/\n\s*\n/)[0];
  return para.replace(/\s+/g, " ").trim();
}

function stripMarkers(lines, lang) {
  return lines
    .map((l) => {
      if (lang === "js") return l.replace(/^\s*\/\/\s?/, "").replace(/^\s*\/\*\*?/, "").replace(/\*\/\s*$/, "").replace(/^\s*\*\s?/, "");
      if (lang === "go") return l.replace(/^\s*\/\/\s?/, "");
      if (lang === "rs") return l.replace(/^\s*\/\/\/\s?/, "");
      if (lang === "rb") return l.replace(/^\s*#\s?/, "");
      return l;
    })
    .join("\n");
}

/** Finds the doc comment block ending right above line `i` (decorators skipped); returns [start, docLines] or null. */
function docAbove(lines, i, lang) {
  let j = i - 1;
  while (j >= 0 && (/^\s*@\w/.test(lines[j]) || /^\s*#\[/.test(lines[j]))) j--; // decorators, attributes
  if (j < 0) return null;
  if (lang === "js" && /^\s*\/\/(?!\/)/.test(lines[j])) {
    // a run of // line comments (underscore, d3 and many modules document this way)
    let s = j;
    while (s - 1 >= 0 && /^\s*\/\/(?!\/)/.test(lines[s - 1]) && j - s < 40) s--;
    const block = lines.slice(s, j + 1);
    if (block.some((l) => /eslint|@ts-|istanbul|prettier-ignore|copyright|license/i.test(l))) return null;
    return [s, block];
  }
  if (lang === "js") {
    if (!/\*\/\s*$/.test(lines[j])) return null;
    let s = j;
    while (s >= 0 && !/^\s*\/\*\*/.test(lines[s])) {
      if (j - s > 80 || /^\s*\/\*[^*]/.test(lines[s])) return null;
      s--;
    }
    if (s < 0) return null;
    return [s, lines.slice(s, j + 1)];
  }
  const marker = lang === "go" ? /^\s*\/\/(?!\/)/ : lang === "rs" ? /^\s*\/\/\/(?!\/)/ : /^\s*#(?![!{])/;
  if (!marker.test(lines[j])) return null;
  let s = j;
  while (s - 1 >= 0 && marker.test(lines[s - 1]) && j - s < 80) s--;
  return [s, lines.slice(s, j + 1)];
}

function pythonUnits(path, lines, maxLines) {
  const units = [];
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(DECL.py);
    if (!m) continue;
    const indent = m[1].length;
    // signature may span lines: up to the line ending with ':'
    let sigEnd = i;
    while (sigEnd < lines.length && sigEnd < i + 20 && !/:\s*(#.*)?$/.test(lines[sigEnd])) sigEnd++;
    if (sigEnd >= lines.length) continue;
    // docstring: first statement
    let d = sigEnd + 1;
    while (d < lines.length && !lines[d].trim()) d++;
    if (d >= lines.length) continue;
    const dm = lines[d].match(/^\s*[rRuU]?("""|''')(.*)$/);
    if (!dm) continue;
    const q = dm[1];
    let docEnd = d;
    let docText = dm[2];
    if (docText.includes(q)) docText = docText.slice(0, docText.indexOf(q));
    else {
      docEnd = d + 1;
      while (docEnd < lines.length && !lines[docEnd].includes(q)) docEnd++;
      if (docEnd >= lines.length) continue;
      docText += "\n" + lines.slice(d + 1, docEnd).join("\n") + "\n" + lines[docEnd].slice(0, lines[docEnd].indexOf(q));
    }
    // body: until a non-blank line at indentation <= the def's
    let end = docEnd;
    for (let k = docEnd + 1; k < lines.length && k < i + maxLines; k++) {
      const l = lines[k];
      if (!l.trim()) continue;
      const ind = l.match(/^\s*/)[0].length;
      if (ind <= indent) break;
      end = k;
    }
    const code = [...lines.slice(i, sigEnd + 1), ...lines.slice(docEnd + 1, end + 1)].join("\n");
    units.push({ path, lang: "py", symbol: m[2], line: i + 1, doc: cleanDoc(docText.replace(/^[ \t]+/gm, "")), code });
  }
  return units;
}

/**
 * Documented units of one file: [{ path, lang, symbol, line, doc, code }]. `code` excludes
 * the doc comment; `doc` is its first paragraph, markers and tags removed.
 */
export function extractUnits(path, text, maxLines = 150) {
  const lang = languageOf(path);
  if (!lang) return [];
  const lines = text.split(/\r?\n/);
  if (lines.length > 30000) return [];
  if (lang === "py") return pythonUnits(path, lines, maxLines);
  const units = [];
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(DECL[lang]);
    if (!m) continue;
    const symbol = firstGroup(m);
    if (!symbol || (lang === "js" && JS_KEYWORDS.has(symbol))) continue;
    const doc = docAbove(lines, i, lang);
    if (!doc) continue;
    const end = lang === "rb" ? rubyEnd(lines, i, maxLines) : braceEnd(lines, i, maxLines);
    if (end < 0) continue;
    const code = lines.slice(i, end + 1).join("\n");
    units.push({ path, lang, symbol: symbol.split(".").pop(), line: i + 1, doc: cleanDoc(stripMarkers(doc[1], lang)), code });
  }
  return units;
}
