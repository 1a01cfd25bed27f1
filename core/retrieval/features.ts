// Ranking features that code search rewards. Each one reads a candidate chunk (and the
// analysed query) and returns a value in [0,1]; rank.ts weighs them. Portable.
import type { ChunkRecord } from "../types.js";
import { unsigiled, type QueryAnalysis } from "./query-analysis.js";
import { DECLARATION_KEYWORD_SOURCE, distinctTerms, DOUBLED_CONSONANTS, nameKey, nameParts, normaliseTerm, tokenizeCode, tokenizePath } from "../keyword/tokenize.js";
import { declaredNames, packMembers } from "../chunking/pack.js";
import { TITLED_KINDS } from "../chunking/languages/test-calls.js";
import { boundedMemo } from "../bounded-memo.js";
import { reExportedNames } from "../symbols/reexports.js";

/** Kinds that declare something: what a user naming or describing code usually wants. */
const DEFINITION_KINDS = new Set([
  "function",
  "method",
  "constructor",
  "class",
  "object",
  "interface",
  "type",
  "enum",
  "struct",
  "trait",
  "impl",
  "protocol",
  "extension",
  "module",
  "namespace",
  "record",
  "macro",
]);

/** Prose kinds (Markdown and friends): useful, but code questions want code first. */
const PROSE_KINDS = new Set(["section", "heading", "paragraph", "preamble"]);
/** Data and markup (JSON keys, HTML elements, CSS rules): rarely what a code question means. */
const DATA_KINDS = new Set(["key", "element", "rule", "style"]);

/** Prose chunks: what `chunkShapePrior` demotes unless the query asks for documentation. */
export function isProse(record: ChunkRecord): boolean {
  return PROSE_KINDS.has(record.kind);
}

/** Data chunks (JSON keys, YAML and TOML entries, XML elements, CSS rules). */
export function isData(record: ChunkRecord): boolean {
  return DATA_KINDS.has(record.kind);
}

/** Chunks of at most this many lines: a lone getter, a closing brace, a reopened class line. */
export const SHORT_CHUNK_LINES = 5;

export function isShortChunk(record: ChunkRecord): boolean {
  return record.endLine - record.startLine + 1 <= SHORT_CHUNK_LINES;
}

/** 1 for declarations, 0.5 for other code, 0.25 for data and markup, 0 for prose. */
export function kindPrior(record: ChunkRecord): number {
  if (DEFINITION_KINDS.has(record.kind)) return 1;
  if (PROSE_KINDS.has(record.kind)) return 0;
  if (DATA_KINDS.has(record.kind)) return 0.25;
  return 0.5;
}

/** Normalised terms of a chunk (path, context, symbol and text), cached by chunk id. */
const termCache = new Map<string, Set<string>>();
// Bounded: a long-lived plugin process must not grow with the index (~150 terms a chunk).
const TERM_CACHE_LIMIT = 4_000;

function chunkTerms(record: ChunkRecord): Set<string> {
  const key = `${record.id}:${record.contentHash}`;
  let terms = termCache.get(key);
  if (!terms) {
    terms = distinctTerms(`${record.filePath} ${record.context} ${record.symbol}\n${record.content}`);
    // Evict the oldest entry, not everything: a query's candidates are often the last one's.
    if (termCache.size >= TERM_CACHE_LIMIT) termCache.delete(termCache.keys().next().value as string);
    termCache.set(key, terms);
  }
  return terms;
}

/**
 * Share of the query's distinct content words the chunk contains anywhere. BM25 lets one
 * rare word dominate; a chunk that answers every part of the question should not lose to it.
 */
export function queryTermCoverage(q: QueryAnalysis, record: ChunkRecord): number {
  if (q.terms.length === 0) return 0;
  const terms = chunkTerms(record);
  let hit = 0;
  for (const t of q.terms) if (terms.has(t)) hit++;
  return hit / q.terms.length;
}

/** Words of an identifier, normalised as the keyword index does. */
// The same candidates' names and paths come back query after query: their words are worked
// out once (bounded, so a long-lived process does not keep every name it ever ranked).
const MEMO_LIMIT = 20_000;

const identifierWords = boundedMemo((name: string): string[] => {
  const tokens = tokenizeCode(name);
  // The tokenizer also emits the joined identifier (`parselevel`); coverage counts its words only.
  const whole = tokens.length > 1 ? tokens[tokens.length - 1] : null;
  return [...new Set(tokens.filter((t) => t !== whole).map(normaliseTerm))].filter((w) => !/^\d+$/.test(w));
}, MEMO_LIMIT);

/** Score of a symbol the query names in another case or with other separators (`command` for `Command`). */
const LOOSE_SYMBOL_MATCH = 0.5;

/**
 * The query names this chunk's symbol, or its qualified form (`Retry.increment` for method
 * `increment` in class `Retry`): 1 when spelled as written, LOOSE_SYMBOL_MATCH when only case
 * or separators differ (`Command` the class vs `command()` the decorator, `absl::Hash` vs
 * `AbslHash`): both are candidates, the one written first.
 */
export function exactSymbolMatch(q: QueryAnalysis, record: ChunkRecord): number {
  if (q.identifierKeys.size === 0) return 0;
  const { names, parent } = declaredNames(record);
  const written = q.writtenNames;
  for (const name of names) {
    if (written.has(unsigiled(name))) return 1;
    if (parent && written.has(`${unsigiled(parent)}.${unsigiled(name)}`)) return 1;
  }
  for (const name of names) {
    if (q.identifierKeys.has(nameKey(name))) return LOOSE_SYMBOL_MATCH;
    if (parent && q.identifierKeys.has(nameKey(parent + name))) return LOOSE_SYMBOL_MATCH;
  }
  return 0;
}

/**
 * A packed chunk as the answer to this query: named (symbol and kind) by the member the query
 * names, else by the member whose name it spells best; unchanged when it names none of them
 * or the chunk is not a pack. The lines stay the pack's: the member is shown with its neighbours.
 */
export function focusOnMember(q: QueryAnalysis, record: ChunkRecord): ChunkRecord {
  const members = packMembers(record);
  if (members.length < 2) return record;
  let best: { kind: string; name: string } | null = null;
  let bestScore = 0;
  for (const m of members) {
    const one = { ...record, symbol: m.name, context: "" };
    const score = 2 * exactSymbolMatch(q, one) + symbolTermCoverage(q, one);
    if (score > bestScore) {
      bestScore = score;
      best = m;
    }
  }
  if (!best || (best.name === record.symbol && best.kind === record.kind)) return record;
  return { ...record, symbol: best.name, kind: best.kind };
}

/** Share of the symbol's words that the query mentions: "parse a log level" vs `ParseLevel` → 1. */
export function symbolTermCoverage(q: QueryAnalysis, record: ChunkRecord): number {
  if (!record.symbol || q.terms.length === 0) return 0;
  let best = 0;
  // A packed chunk: the member whose name the query spells best.
  for (const name of declaredNames(record).names) {
    const words = identifierWords(name);
    if (words.length === 0) continue;
    let hit = 0;
    for (const w of words) if (saysNameWord(q, w)) hit++;
    best = Math.max(best, hit / words.length);
  }
  return best;
}

/**
 * How much a query word in a directory name counts against one in the file name: a folder
 * named like the topic (`core/embedding/`) holds many files, only some of them the answer.
 */
const DIRECTORY_MATCH_SHARE = 0.25;
/**
 * How much a query word naming the file's own folder counts (`RankWeights.parentFolder`): the
 * folder groups the file with its few siblings (`parsers/urlencoded.ex`, `handler/event.lua`),
 * where a folder higher up holds a whole subsystem.
 */
export const PARENT_FOLDER_SHARE = 1;

/** File names that say nothing about their module: the folder names it (`extract/mod.rs`). */
const INDEX_FILE = /^(?:mod|index|__init__|init|lib|main|package-info|_index)\.[^./]+$/;

/** Shortest word of a path that may match another word by prefix ("depend" ~ "dependencies"). */
const MIN_PREFIX = 4;

/**
 * Shortest word of a symbol's name that may match by prefix ("parse" ~ "parser"): names are
 * made of short everyday words, and four letters join too many of them ("read" ~ "ready",
 * "form" ~ "format"); see docs/retrieval.md.
 */
const MIN_NAME_PREFIX = 5;

/**
 * One word is the other's prefix: an inflection or derivation ("route" ~ "router", "config" ~
 * "configuration"), not a compound ("load" ~ "loadconfig"): a short prefix may only lack a
 * short ending.
 */
function isPrefixForm(shorter: string, longer: string, minPrefix: number): boolean {
  return shorter.length >= minPrefix && longer.startsWith(shorter) && (shorter.length >= 6 || longer.length - shorter.length <= 4);
}

/** `log` ~ `logger`, `map` ~ `mapper`, `run` ~ `runner`: a short word, its last consonant doubled, then -er. */
function isDoubledAgentNoun(word: string, longer: string): boolean {
  const last = word[word.length - 1];
  return word.length === 3 && DOUBLED_CONSONANTS.includes(last) && (longer === `${word}${last}er` || longer === `${word}${last}ers`);
}

/**
 * Two forms of one word: one the other's prefix (from `minPrefix` letters), or both of one root
 * with their endings (`decoding` ~ `decoders`).
 */
function isFormOf(a: string, b: string, minPrefix: number): boolean {
  if (a.length <= b.length ? isPrefixForm(a, b, minPrefix) : isPrefixForm(b, a, minPrefix)) return true;
  const root = derivationRoot(a);
  return root !== null && derivationRoot(b) === root;
}

/** The roots of the query's words (`derivationRoot`), worked out once per query: names are compared with them per candidate. */
const termRoots = new WeakMap<QueryAnalysis, ReadonlySet<string>>();
function rootsOf(q: QueryAnalysis): ReadonlySet<string> {
  let roots = termRoots.get(q);
  if (!roots) {
    roots = new Set(q.terms.map(derivationRoot).filter((r): r is string => r !== null));
    termRoots.set(q, roots);
  }
  return roots;
}

/**
 * A path word among `words`, or a form of one. A three-letter word is too short a prefix, save
 * for the one derivation that doubles its last consonant ("log" ~ "logger", as "logging" folds
 * to "log"); in a symbol's name that one joins too much (`SqlMapper` for every "map").
 */
function hasPathWordOrForm(words: ReadonlySet<string>, term: string): boolean {
  if (words.has(term)) return true;
  for (const w of words) if (isFormOf(w, term, MIN_PREFIX) || (w.length < term.length ? isDoubledAgentNoun(w, term) : isDoubledAgentNoun(term, w))) return true;
  return false;
}

/** A word of a symbol's name that the query says, or says a form of (`parse` ~ "parser", `decoder` ~ "decoding"). */
function saysNameWord(q: QueryAnalysis, word: string): boolean {
  if (q.termSet.has(word)) return true;
  const root = derivationRoot(word);
  if (root !== null && rootsOf(q).has(root)) return true;
  for (const t of q.terms) if (t.length <= word.length ? isPrefixForm(t, word, MIN_NAME_PREFIX) : isPrefixForm(word, t, MIN_NAME_PREFIX)) return true;
  return false;
}

/** Derivational and inflectional endings two forms of a word may differ by (a path's or a name's and the query's). */
const DERIVATION_SUFFIX = /(?:ations?|itions?|ions?|ives?|ings?|ers?|ors?|ed|es|e|y)$/;

/**
 * Shortest root two words may share: five letters. Four-letter roots join words that name other
 * things (`state` ~ `station`) or that the dev sets answer apart (`parsing` ~ `JsonParser.java`
 * for a question about the reader); see docs/retrieval.md.
 */
const MIN_ROOT = 5;

/**
 * A word without one ending, its doubled last consonant undone, when at least `MIN_ROOT`
 * letters remain, else null: `encoding`, `encoder`, `_decoders` → `encod`/`decod`; `settling`,
 * `settle` → `settl`; `reflection`, `reflective` → `reflect`; `expiration`, `expire` → `expir`.
 */
const derivationRoot = boundedMemo((word: string): string | null => {
  let root = word.replace(DERIVATION_SUFFIX, "");
  if (root.length >= 2 && root[root.length - 1] === root[root.length - 2]) root = root.slice(0, -1);
  return root.length >= MIN_ROOT ? root : null;
}, MEMO_LIMIT);

/**
 * Share of the query's content words found in the path; a word in the file name counts fully,
 * one in a directory name a quarter; a word matches its other forms by prefix (`routing` →
 * router.py, `dependencies` → depend.go) or by root (`decoding` → _decoders.py). An index-like file (`mod.rs`, `__init__.py`,
 * `index.ts`, `init.lua`) takes its folder's name. `retry` → util/retry.py,
 * `HashWithIndifferentAccess` → hash_with_indifferent_access.rb.
 */
export function pathTermCoverage(q: QueryAnalysis, record: ChunkRecord, parentShare: number = PARENT_FOLDER_SHARE): number {
  if (q.terms.length === 0) return 0;
  const { stem, parent, dirs } = pathWords(record.filePath);
  if (isOnlyNames(q)) return namedPathCoverage(q, stem, parent);
  let score = 0;
  for (const t of q.terms) {
    if (hasPathWordOrForm(stem, t)) score += 1;
    else if (hasPathWordOrForm(parent, t)) score += Math.max(parentShare, DIRECTORY_MATCH_SHARE);
    else if (hasPathWordOrForm(dirs, t)) score += DIRECTORY_MATCH_SHARE;
  }
  return Math.min(1, score / q.terms.length);
}

/** A query made of names alone (`FromRequest`, `Retry.get_backoff_time`), no other word. */
function isOnlyNames(q: QueryAnalysis): boolean {
  return q.kind === "symbol" && q.wordCount === q.identifiers.length;
}

/**
 * Path coverage for a query made of names: the share of the names (each part of a qualified
 * one) the path says whole, as a file name (`IntoResponse` → into_response.rs) or with every
 * word of it in the file's or its own folder's name (`ErrorKind` → error/kind.rs). A file
 * sharing one word of a name (`FromRequest` → map_request.rs) says nothing about it.
 */
function namedPathCoverage(q: QueryAnalysis, stem: ReadonlySet<string>, parent: ReadonlySet<string>): number {
  let said = 0;
  let parts = 0;
  for (const id of q.identifiers) {
    for (const part of nameParts(id)) {
      if (!part) continue;
      parts++;
      const words = identifierWords(part);
      if (stem.has(normaliseTerm(nameKey(part))) || (words.length > 0 && words.every((w) => hasPathWordOrForm(stem, w) || hasPathWordOrForm(parent, w)))) said++;
    }
  }
  return parts ? said / parts : 0;
}

/** A path's words: its file name's (and its folder's, for an index-like file), its own folder's, and all its folders'. */
const pathWords = boundedMemo((filePath: string): { stem: Set<string>; parent: Set<string>; dirs: Set<string> } => {
  const slash = filePath.lastIndexOf("/");
  const fileName = filePath.slice(slash + 1);
  const dirPath = slash > 0 ? filePath.slice(0, slash) : "";
  const stem = new Set(tokenizePath(fileName).map(normaliseTerm));
  const parent = new Set(dirPath ? tokenizePath(`${dirPath.slice(dirPath.lastIndexOf("/") + 1)}/x`).map(normaliseTerm) : []);
  if (INDEX_FILE.test(fileName)) for (const t of parent) stem.add(t);
  const dirs = new Set(dirPath ? tokenizePath(`${dirPath}/x`).map(normaliseTerm) : []);
  return { stem, parent, dirs };
}, MEMO_LIMIT);

/**
 * Share of the file name's words (its folder's, for an index-like file) that the query says,
 * or says a variant of: `configuration.zig` for "how is the configuration loaded and
 * validated", `workspace_symbols.zig` for "workspace symbol search". A file named after the
 * question's concept, however many other words the question has.
 */
export function fileNameCoverage(q: QueryAnalysis, record: ChunkRecord): number {
  if (q.terms.length === 0) return 0;
  const parts = record.filePath.split("/");
  const fileName = parts[parts.length - 1];
  const named = INDEX_FILE.test(fileName) && parts.length > 1 ? parts[parts.length - 2] : fileName.replace(/\.[^.]*$/, "");
  const words = identifierWords(named);
  if (words.length === 0) return 0;
  const terms = q.termSet;
  let hit = 0;
  for (const w of words) if (hasPathWordOrForm(terms, w)) hit++;
  return hit / words.length;
}

const DECLARATION_WORDS = `(?:${DECLARATION_KEYWORD_SOURCE})`;

/**
 * The chunk declares one of the identifiers the query names (not merely uses it): its symbol
 * matches, or a declaration line in its text does (`def parse_url(`, `func (l *Logger) WithField(`).
 */
export function definesIdentifier(q: QueryAnalysis, record: ChunkRecord): number {
  if (q.identifiers.length === 0) return 0;
  if (exactSymbolMatch(q, record) === 1) return 1;
  for (const last of namesInText(q, record)) {
    const { decl, assign } = declarationPatterns(last);
    if (decl.test(record.content) || assign.test(record.content)) return 1;
  }
  return 0;
}

/**
 * The chunk re-exports one of the identifiers the query names (`pub use axum_core::extract::FromRequest;`,
 * `export { Router } from "./router"`). Where no candidate declares the name, it is declared
 * outside the index (a sibling crate or package), and the re-export is where it enters.
 */
export function reExportsIdentifier(q: QueryAnalysis, record: ChunkRecord): boolean {
  const named = namesInText(q, record);
  if (named.length === 0) return false;
  const exported = reExportedNames(record);
  return named.some((name) => exported.includes(name));
}

/**
 * The last parts of the query's identifiers that the chunk's text spells as written: the
 * declaration and re-export patterns look for nothing else, and a text without the name is not
 * searched line by line (the costly part of ranking a large list). One letter counts only when
 * it is the whole name asked for (`g`).
 */
function namesInText(q: QueryAnalysis, record: ChunkRecord): string[] {
  const out: string[] = [];
  for (const id of q.identifiers) {
    const last = nameParts(id).pop() ?? "";
    if (last.length === 0 || (last.length < 2 && last !== id) || !record.content.includes(last)) continue;
    out.push(last);
  }
  return out;
}

/** Lines that declare `name`: a declaration keyword before it, or an assignment-style declaration. */
const declarationPatterns = boundedMemo((last: string): { decl: RegExp; assign: RegExp } => {
  const name = last.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return {
    decl: new RegExp(`(?:^|\\n)[ \\t]*(?:[\\w@#\\[\\]()"'.,:]+[ \\t]+)*${DECLARATION_WORDS}[ \\t]+(?:\\([^)]*\\)[ \\t]*)?(?:[\\w$]+(?:\\.|::))*${name}\\b(?!\\.\\w|::)`),
    // Assignment-style declarations: `const parseUrl = (`, `parse_url = lambda`, `Foo: {`,
    // and annotated ones: `g: _AppCtxGlobalsProxy = LocalProxy(`, `timeout: float | None = 5`.
    assign: new RegExp(`(?:^|\\n)[ \\t]*(?:export[ \\t]+)?${name}[ \\t]*(?:=[^=]|:[ \\t]*(?:function|\\()|:[ \\t]*[\\w.\\[\\], |'"?]+=[^=])`),
  };
}, MEMO_LIMIT);

/** The chunk's text mentions a named identifier without declaring it (`declares`: what `definesIdentifier` said): a reference. */
export function onlyReferencesIdentifier(q: QueryAnalysis, record: ChunkRecord, declares: boolean): boolean {
  if (q.identifierKeys.size === 0 || declares) return false;
  const text = nameKey(record.content);
  for (const k of q.identifierKeys) if (k.length >= 4 && text.includes(k)) return true;
  return false;
}

/**
 * What a chunk is called, in one short text to embed (`nameSimilarity`): its context (the
 * enclosing declarations and the signatures of what it declares, a pack's members), else its
 * symbol, else its file's name. Without the body, a statement meets the names alone.
 */
export function unitNames(record: ChunkRecord): string {
  // A test's title describes what it tests (`suite RuboCop::Cop::AbcSizeCalculator`): no name
  // of the chunk's own, so it meets a question by its file's name, as unnamed code does.
  if (TITLED_KINDS.has(record.kind)) return fileStem(record.filePath);
  if (record.context) return record.context;
  if (record.symbol) return record.symbol;
  return fileStem(record.filePath);
}

function fileStem(filePath: string): string {
  return filePath.slice(filePath.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
}
