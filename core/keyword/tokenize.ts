// Code-aware tokenizer: identifiers are split into their words (camelCase, PascalCase,
// snake_case, kebab-case, letter/digit boundaries) and ALSO kept whole with separators
// removed, so `getUserById`, `get_user_by_id` and the words "get user by id" all meet.
// Portable: no Node built-ins.

import { forEachWordRun } from "../word-runs.js";

/**
 * Words inside one identifier segment: an upper-case run not followed by lower case (`HTTP` in
 * `HTTPServer`), a capitalised word, a lower-case run, a digit run, other letters (CJK…).
 */
const WORD_PART = /\p{Lu}+(?!\p{Ll})|\p{Lu}\p{Ll}+|\p{Ll}+|\p{N}+|\p{L}+/gu;
const SEPARATORS = /[_$-]+/;
const ALL_SEPARATORS = /[_$-]+/g;
/** An identifier that is a single word: all lower case, capitalised, or all digits (ASCII). */
const PLAIN_WORD = /^(?:[A-Z]?[a-z]+|[0-9]+)$/;

/** Tokens longer than this are hashes, base64 or minified noise: never useful to match on. */
export const MAX_TOKEN_LENGTH = 64;

/**
 * The distinct normalised terms of a text, as a set: what tokenizeCode + normaliseTerm give,
 * computed once per distinct identifier (code repeats its names; a 4 KB chunk has a few
 * hundred identifiers but a few dozen distinct ones).
 */
export function distinctTerms(text: string): Set<string> {
  const identifiers = new Set<string>();
  const tokens: string[] = [];
  forEachIdentifier(text, (id) => {
    if (identifiers.has(id)) return;
    identifiers.add(id);
    pushIdentifierTokens(id, tokens);
  });
  const out = new Set<string>();
  for (const token of tokens) out.add(normaliseTerm(token));
  return out;
}

/**
 * Lower-cased tokens of `text`, in order, with repeats (term frequency matters).
 * For each identifier: its words of two or more characters, then the whole identifier
 * (separators removed) when it has more than one word.
 */
export function tokenizeCode(text: string): string[] {
  const out: string[] = [];
  forEachIdentifier(text, (id) => pushIdentifierTokens(id, out));
  return out;
}

/**
 * Calls `fn` with each identifier-like run of `text` (letters, digits, `_`, `$`), in order, with
 * repeats; kebab-joined runs (`max-width`, `--dry-run`) count as one identifier.
 */
export function forEachIdentifier(text: string, fn: (identifier: string) => void): void {
  forEachWordRun(text, true, fn);
}

/** The tokens of one identifier, as tokenizeCode gives them for it anywhere in a text. */
export function identifierTokens(id: string): string[] {
  const out: string[] = [];
  pushIdentifierTokens(id, out);
  return out;
}

function pushIdentifierTokens(id: string, out: string[]): void {
  // Fast path for the bulk of code and prose: one plain word (`return`, `Value`, `42`).
  if (PLAIN_WORD.test(id)) {
    if (id.length >= 2 && id.length <= MAX_TOKEN_LENGTH) out.push(id.toLowerCase());
    return;
  }
  let words = 0;
  for (const segment of id.split(SEPARATORS)) {
    if (segment.length === 0) continue;
    WORD_PART.lastIndex = 0;
    let part: RegExpExecArray | null;
    while ((part = WORD_PART.exec(segment)) !== null) {
      words++;
      const word = part[0];
      // Single characters (`i`, `x`, `0`) are everywhere and say nothing.
      if (word.length < 2 || word.length > MAX_TOKEN_LENGTH) continue;
      out.push(word.toLowerCase());
    }
  }
  if (words > 1) {
    const whole = id.replace(ALL_SEPARATORS, "").toLowerCase();
    if (whole.length >= 2 && whole.length <= MAX_TOKEN_LENGTH) out.push(whole);
  }
}

/**
 * Folds English inflections so that a query in prose meets the words of code: "batched",
 * "batching", "batches" and `batch` all become `batch`; "embeddings" and `embedded` become
 * `embed`; "copied" becomes `copy`. Deliberately small and conservative: -ing/-ed are removed
 * only where the stem cannot have lost a silent e (`parsed` stays, since it could be `parse`
 * or `pars`), and never below four letters. Applied to index and query terms alike, so its one
 * duty is consistency; a miss costs a little recall, a wrong merge costs precision.
 */
export function normaliseTerm(token: string): string {
  let w = token;
  const first = w.charCodeAt(0);
  if (w.length <= 3 || first < 97 || first > 122) return w; // short words, digits, non-ASCII
  // Plurals: -ies → -y; -tches/-shes/-xes/-sses/-zzes → drop -es; otherwise -s.
  if (w.endsWith("ies") && w.length > 4) return w.slice(0, -3) + "y";
  if (/(?:tch|sh|x|ss|zz)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith("s")) {
    if (w.endsWith("ss") || w.endsWith("us") || w.endsWith("is") || !isLetter(w.charCodeAt(w.length - 2))) return w;
    w = w.slice(0, -1); // and on: `embeddings` → `embedding` → `embed`
  }
  if (w.endsWith("ied") && w.length > 4) return w.slice(0, -3) + "y";
  if (w.endsWith("ing")) return foldSuffix(w, w.slice(0, -3));
  if (w.endsWith("ed")) return foldSuffix(w, w.slice(0, -2));
  return w;
}

function isLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

function isVowel(ch: string): boolean {
  return ch === "a" || ch === "e" || ch === "i" || ch === "o" || ch === "u";
}

/** Stem endings after which English never drops a silent e: `batch`, `index`, `start`, `render`. */
const CLEAN_ENDINGS = /(?:tch|sh|ck|x|nd|rt|st|ld|lt|nt|pt|ct|rm|rn|wn|ll|ss|ff|th|rk|sk|lk|ft|mp|rd|lp|gn|er|en|on|el|al|ow|ay|ey|oy)$/;

/** Consonants English doubles after a short vowel before an ending: `mapping`, `embedded`, `logger`. */
export const DOUBLED_CONSONANTS = "bdgmnprt";

/** `stem` when removing the suffix is unambiguous, else the word unchanged. */
function foldSuffix(word: string, stem: string): string {
  const n = stem.length;
  if (n < 4) return word;
  const last = stem[n - 1];
  // A doubled consonant marks a short vowel: `mapp` → `map`, `embedd` → `embed`.
  if (last === stem[n - 2] && DOUBLED_CONSONANTS.includes(last)) return stem.slice(0, -1);
  if (CLEAN_ENDINGS.test(stem)) return stem;
  // Consonant + y: `copy`, `apply`, `modify`.
  if (last === "y" && !isVowel(stem[n - 2])) return stem;
  // Two vowels then a consonant that takes no silent e: `load`, `need`, `fail`, `contain`.
  if (isVowel(stem[n - 3]) && isVowel(stem[n - 2]) && !isVowel(last) && !"svzcgy".includes(last)) return stem;
  return word;
}

/** Tokens of a workspace-relative path: directory and file-name words; the extension is dropped. */
export function tokenizePath(filePath: string): string[] {
  const slash = filePath.lastIndexOf("/");
  const base = filePath.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return tokenizeCode(filePath.slice(0, slash + 1).replace(/[/.]/g, " ") + " " + stem);
}

/** A whole name as one lower-case key, whatever its case and separators: `ZodError`, `zod_error` → "zoderror". */
export function nameKey(name: string): string {
  return name.replace(/\(\)$/, "").replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase();
}

/** A name's parts, qualifier by qualifier, without a call's `()`: `Retry.get_backoff_time()` → Retry, get_backoff_time. */
export function nameParts(name: string): string[] {
  return name.replace(/\(\)$/, "").split(QUALIFIER);
}

/** What joins a qualified name's parts: `::`, `.`, Ruby's `#`, and PHP's `->` and `\` (`Illuminate\Support\Collection`). */
const QUALIFIER_SOURCE = String.raw`::|\.|#|->|\\`;
/** A qualifier anywhere in a text. */
export const QUALIFIER = new RegExp(QUALIFIER_SOURCE);
/** One identifier, as a pattern to build others from (unicode flag). */
export const IDENTIFIER_SOURCE = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;
/** An identifier, plain or qualified, as a pattern to anchor and extend (`(?:\(\))?` for a call). */
export const QUALIFIED_NAME_SOURCE = String.raw`${IDENTIFIER_SOURCE}(?:(?:${QUALIFIER_SOURCE})${IDENTIFIER_SOURCE})*`;
/**
 * The keywords that declare a name in the languages indexed (`def`, `fn`, `class`,
 * `macro_rules!`, C's `#define`…), as alternatives: a regular-expression source.
 */
export const DECLARATION_KEYWORD_SOURCE =
  "def|defp|defmodule|defmacro|defmacrop|defstruct|defprotocol|defdelegate|defguard|defexception|class|module|function|fn|fun|func|struct|enum|trait|interface|type|typealias|newtype|impl|object|record|protocol|extension|actor|namespace|macro_rules!|const|let|var|val|static|#[ \\t]*define";

/** A single (optionally qualified) identifier: `Transaction`, `Table.json`, `Sinatra::Helpers`; not `IntoResponse for Json<T>`. */
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_SOURCE}$`, "u");

/**
 * The keys a name is found by, in the index and in a query alike: the whole name's and, for a
 * qualified one, its last part's (`Table.json` → "tablejson", "json"), each once.
 */
export function nameKeys(name: string): string[] {
  const parts = nameParts(name);
  const keys = [nameKey(name)];
  if (parts.length > 1) keys.push(nameKey(parts[parts.length - 1]));
  return keys.filter((k, i) => k.length > 0 && keys.indexOf(k) === i);
}

/** The keys a chunk's declared name is recorded under (`nameKeys`); none for a label that is not a name. */
export function declaredNameKeys(name: string): string[] {
  return QUALIFIED_NAME.test(name) ? nameKeys(name) : [];
}
