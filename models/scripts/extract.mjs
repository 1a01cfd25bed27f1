// Pulls units out of source files: for every function/method/class/type, its doc comment
// (when it has one) and the code without it; plus Markdown sections. Line-based heuristics,
// not a parser: training data tolerates a few imperfect units, and this runs on any language
// without grammars. Each language states where docs live and how a body ends.

const DECL = {
  js: /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:public\s+|private\s+|protected\s+|static\s+|readonly\s+|abstract\s+|override\s+)*(?:async\s+)?(?:function\s*\*?\s*([A-Za-z_$][\w$]*)|class\s+([A-Za-z_$][\w$]*)|interface\s+([A-Za-z_$][\w$]*)|type\s+([A-Za-z_$][\w$]*)\s*[=<]|enum\s+([A-Za-z_$][\w$]*)|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)|(?:get\s+|set\s+)?\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*$|([A-Za-z_$][\w$.]*)\s*=\s*function\b|([A-Za-z_$][\w$]*)\s*:\s*function\b)/,
  go: /^\s*(?:func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)|type\s+([A-Za-z_]\w*)\s+(?:struct|interface|func)\b)/,
  rs: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+|extern\s+"[^"]*"\s+)*(?:fn\s+([A-Za-z_]\w*)|struct\s+([A-Za-z_]\w*)|enum\s+([A-Za-z_]\w*)|trait\s+([A-Za-z_]\w*)|impl\b[^{]*?\bfor\s+([A-Za-z_]\w*))/,
  rb: /^\s*(?:def\s+(?:self\.)?([A-Za-z_]\w*[?!=]?)|class\s+([A-Z]\w*(?:::\w+)*)|module\s+([A-Z]\w*(?:::\w+)*))/,
  py: /^(\s*)(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/,
  // C, C++, Java, C#, Kotlin, Scala, Swift, Zig, PHP: a type keyword, a function keyword, or
  // `name(` after modifiers and a return type (control-flow words are ruled out separately)
  c: /^\s*(?:(?:[\w$@\[\]<>,.:*&~]+|<[^>]*>)\s+)*?(?:(?:class|struct|interface|enum|trait|object|record|union|protocol|extension|namespace)\s+([A-Za-z_]\w*)|(?:fun|func|fn|def|function)\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?`?([A-Za-z_]\w*)|\*?&?((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*)\s*\((?!\s*\*)[^;]*$)/,
  lua: /^\s*(?:local\s+)?(?:function\s+([\w.:]+)|([\w.]+)\s*=\s*function\b)/,
  sh: /^\s*(?:function\s+([\w:.-]+)|([A-Za-z_][\w:.-]*)\s*\(\)\s*\{?\s*$)/,
  ex: /^\s*(?:def|defp|defmacro|defmacrop|defguard|defmodule|defprotocol|defimpl)\s+([\w.?!]+)/,
  hs: /^(?:([a-z_][\w']*)\s*::|(?:data|newtype|class|type(?:\s+family)?)\s+(?:\([^)]*\)\s*=>\s*)?([A-Z]\w*))/,
};
const C_NOT_DECL = new Set(["if", "for", "while", "switch", "catch", "return", "sizeof", "else", "do", "new", "throw", "delete", "case", "using", "typedef", "defined", "assert", "elif", "foreach", "synchronized", "lock", "when", "until", "guard", "try"]);

const JS_KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "return", "function", "with", "super", "constructor"]);

export function languageOf(path) {
  if (/\.min\.js$/.test(path)) return null;
  if (/\.(?:[cm]?js|jsx|[cm]?ts|tsx)$/.test(path)) return "js";
  if (/\.go$/.test(path)) return "go";
  if (/\.rs$/.test(path)) return "rs";
  if (/\.rb$/.test(path)) return "rb";
  if (/\.py$/.test(path)) return "py";
  if (/\.(?:c|h|cc|cpp|cxx|hpp|hh|hxx|ipp|inl|java|cs|kt|kts|scala|sc|swift|zig|php)$/.test(path)) return "c";
  if (/\.lua$/.test(path)) return "lua";
  if (/\.(?:sh|bash|zsh)$/.test(path)) return "sh";
  if (/\.exs?$/.test(path)) return "ex";
  if (/\.l?hs$/.test(path)) return "hs";
  return null;
}

/** The language a person would name, for statistics: by extension. */
export function languageName(path) {
  const ext = path.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase() ?? "";
  const names = { h: "c", cc: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp", hxx: "cpp", ipp: "cpp", inl: "cpp", kts: "kt", sc: "scala", bash: "sh", zsh: "sh", exs: "ex", lhs: "hs", mjs: "js", cjs: "js", jsx: "js", tsx: "ts", mts: "ts", cts: "ts" };
  return names[ext] ?? ext;
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
      if (lang === "js" || lang === "c") return l.replace(/^\s*\/\/[/!]?\s?/, "").replace(/^\s*\/\*[*!]?/, "").replace(/\*\/\s*$/, "").replace(/^\s*\*\s?/, "");
      if (lang === "lua" || lang === "hs") return l.replace(/^\s*--+\s?\|?\s?/, "");
      if (lang === "sh") return l.replace(/^\s*#+\s?/, "");
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
  while (j >= 0 && (/^\s*@\w/.test(lines[j]) || /^\s*#\[/.test(lines[j]) || (lang === "c" && /^\s*\[[A-Z]\w*/.test(lines[j])) || (lang === "c" && /^\s*template\s*</.test(lines[j])))) j--; // decorators, attributes, templates
  if (j < 0) return null;
  if (lang === "c") lang = "js"; // the same comment styles: /** */, /*! */, ///, //
  if (lang === "ex") return elixirDoc(lines, j);
  if (lang === "js" && /^\s*\/\//.test(lines[j])) {
    // a run of // line comments (underscore, d3 and many modules document this way)
    let s = j;
    while (s - 1 >= 0 && /^\s*\/\//.test(lines[s - 1]) && j - s < 40) s--;
    const block = lines.slice(s, j + 1);
    if (block.some((l) => /eslint|@ts-|istanbul|prettier-ignore|copyright|license/i.test(l))) return null;
    return [s, block];
  }
  if (lang === "js") {
    if (!/\*\/\s*$/.test(lines[j])) return null;
    let s = j;
    while (s >= 0 && !/^\s*\/\*[*!]/.test(lines[s])) {
      if (j - s > 80 || /^\s*\/\*[^*]/.test(lines[s])) return null;
      s--;
    }
    if (s < 0) return null;
    return [s, lines.slice(s, j + 1)];
  }
  const marker = lang === "go" ? /^\s*\/\/(?!\/)/ : lang === "rs" ? /^\s*\/\/\/(?!\/)/ : lang === "lua" || lang === "hs" ? /^\s*--/ : /^\s*#(?![!{])/;
  if (!marker.test(lines[j])) return null;
  let s = j;
  while (s - 1 >= 0 && marker.test(lines[s - 1]) && j - s < 80) s--;
  return [s, lines.slice(s, j + 1)];
}

/** Elixir documents a function with `@doc """ … """` (or `@doc "…"`) above it, past `@spec`/`@impl`. */
function elixirDoc(lines, j) {
  while (j >= 0 && /^\s*@(?:spec|impl|decorate|deprecated)\b/.test(lines[j])) j--;
  if (j < 0) return null;
  const one = lines[j].match(/^\s*@doc\s+"(.+)"\s*$/);
  if (one) return [j, [one[1]]];
  if (!/^\s*"""\s*$/.test(lines[j])) return null;
  let s = j - 1;
  while (s >= 0 && j - s < 80 && !/^\s*@doc\s+~?[sS]?"""/.test(lines[s])) s--;
  if (s < 0 || j - s >= 80) return null;
  return [s, lines.slice(s + 1, j)];
}

/** Haskell: a signature line and every following line that is not a new top-level item. */
function haskellEnd(lines, start, maxLines) {
  let end = start;
  for (let i = start + 1; i < lines.length && i < start + maxLines; i++) {
    const l = lines[i];
    if (!l.trim()) continue;
    if (/^\S/.test(l)) {
      const name = lines[start].match(/^([a-z_][\w']*)/)?.[1];
      if (!name || !l.startsWith(name) || /^--/.test(l)) break;
    }
    end = i;
  }
  return end;
}

function pythonUnits(path, lines, maxLines, all) {
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
 * the doc comment; `doc` is its first paragraph, markers and tags removed. With `all`, units
 * without a doc comment come too (doc ""), and JavaScript test cases (`it("…", …)`) with
 * their description as the symbol and `test: true`.
 */
export function extractUnits(path, text, maxLines = 150, all = false) {
  const lang = languageOf(path);
  if (!lang) return [];
  const lines = text.split(/\r?\n/);
  if (lines.length > 30000) return [];
  if (lang === "py") return pythonUnits(path, lines, maxLines, all);
  const units = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length > 400) continue;
    if (all && lang === "js") {
      const t = line.match(/^\s*(?:it|test)\(\s*(['"`])(.{4,160}?)\1\s*,/);
      if (t) {
        const end = braceEnd(lines, i, maxLines);
        if (end > i) units.push({ path, lang, symbol: t[2], line: i + 1, doc: "", code: lines.slice(i, end + 1).join("\n"), test: true });
        continue;
      }
    }
    // comment and preprocessor lines only look like declarations
    if (lang === "c" && /^\s*(?:\*|\/\/|\/\*|#)/.test(line)) continue;
    const m = line.match(DECL[lang]);
    if (!m) continue;
    const symbol = firstGroup(m);
    if (!symbol || (lang === "js" && JS_KEYWORDS.has(symbol)) || (lang === "c" && C_NOT_DECL.has(symbol.split("::").pop()))) continue;
    // C-family `name(` matches also calls: a declaration line does not end a statement, and
    // does not start with a closing brace or an operator
    if (lang === "c" && m[3] && (/;\s*$/.test(line) || /^\s*[})=.+\-|&!]/.test(line) || /^\s*\w+\s*\(/.test(line) && !/\)\s*(?:const\s*)?(?:\{|$)/.test(line))) continue;
    const doc = docAbove(lines, i, lang);
    if (!doc && !all) continue;
    const end = lang === "rb" || lang === "lua" || lang === "ex" ? rubyEnd(lines, i, maxLines) : lang === "hs" ? haskellEnd(lines, i, maxLines) : braceEnd(lines, i, maxLines);
    if (end < 0) continue;
    const code = lines.slice(i, end + 1).join("\n");
    const name = symbol.split(/[.:]/).filter(Boolean).pop() ?? symbol;
    units.push({ path, lang, symbol: name, line: i + 1, doc: doc ? cleanDoc(stripMarkers(doc[1], lang)) : "", code });
  }
  return units;
}

/** Markdown sections: [{ heading, text }] for every heading with some prose under it. */
export function markdownSections(text) {
  const out = [];
  const lines = text.split(/\r?\n/);
  let heading = null;
  let body = [];
  let fence = false;
  const flush = () => {
    const t = body.join("\n").trim();
    if (heading && t.length >= 80) out.push({ heading, text: t.slice(0, 3000) });
  };
  for (const l of lines) {
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    const h = !fence && l.match(/^#{1,4}\s+(.+?)\s*#*\s*$/);
    if (h) {
      flush();
      heading = h[1].replace(/[`*_[\]]/g, "").replace(/\(.*?\)/g, "").trim();
      body = [];
    } else body.push(l);
  }
  flush();
  return out;
}
