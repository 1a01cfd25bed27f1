// Query analysis for the ranking stage: is the query an identifier ("HTTPHeaderDict",
// "parse_url", "Thor::Group") or a question in words ("where are retries with backoff done")?
// Which identifiers does it name, which content words does it carry, does it ask for tests?
// And what a search looks for once a request's and a scope's wording is dropped (`searchText`).
// Portable: no Node built-ins.
import { DECLARATION_KEYWORD_SOURCE, IDENTIFIER_SOURCE, QUALIFIED_NAME_SOURCE, QUALIFIER, nameKeys, nameParts, normaliseTerm, tokenizeCode } from "../keyword/tokenize.js";
import { boundedMemo } from "../bounded-memo.js";

export type QueryKind = "symbol" | "natural";

export interface QueryAnalysis {
  raw: string;
  kind: QueryKind;
  /** Identifiers as written in the query (`PoolManager`, `Retry.get_backoff_time`). */
  identifiers: string[];
  /**
   * Lower-case keys the identifiers go by, separators removed: the whole name and, for
   * qualified names, the last part (`Retry.get_backoff_time` → `retrygetbackofftime`, `getbackofftime`).
   */
  identifierKeys: Set<string>;
  /**
   * The identifiers as written, qualified ones also by their last part, separators as "." and
   * leading sigils dropped (`Sinatra::Helpers` → `Sinatra.Helpers`, `Helpers`): a symbol
   * spelled like one of these is the one meant, not one differing only in case.
   */
  writtenNames: Set<string>;
  /** Normalised content words (split identifiers included), without English filler words. */
  terms: string[];
  /** The same words as a set, for the features that look words up in it per candidate. */
  termSet: ReadonlySet<string>;
  /** The query is about tests (then test files are not demoted). */
  wantsTests: boolean;
  /** The query asks for documentation (then prose is not demoted). */
  wantsDocs: boolean;
  /** Words as typed (split on white space). */
  wordCount: number;
  /** Phrased as a question ("how are routes registered", "… registered?") rather than a statement. */
  asksQuestion: boolean;
  /**
   * The first word is one of the identifiers: the name is the subject ("ExecuteC executes the
   * command", "ZodError structure and issue formatting"), not what the rest acts on.
   */
  opensWithName: boolean;
}

/** Question and filler words: they say how the user asks, not what they look for. */
const STOPWORDS = new Set(
  (
    "a an the and or but if then else of in on at to for from by with without into onto over under about as is are was were be been being " +
    "do does did done doing has have had having can could should would will shall may might must it its this that these those there here " +
    "what which who whom whose where when why how i me my we our you your they them their he she his her not no yes all any each every " +
    "some such more most other than too very just also only so up down out off again once get gets got make makes made use uses used using " +
    "find finds found show shows code implementation implemented implement happen happens handled handle handles place part thing way ways"
  ).split(" "),
);

/** Words that open a question: a question asks about a topic, where a statement may describe one unit. */
const QUESTION_OPENERS = new Set(
  "how what where which why when who whom whose is are was were does do did can could should would will has have".split(" "),
);

/**
 * A request opening the query ("explain how sessions expire", "show me where routes are
 * registered", "walk me through the build", "tell me about the cache"): it says how the user
 * asks, not what they look for. A verb alone is not one: "show a diff between two files"
 * describes one unit, as doc comments do ("Find duplicates in a sorted array").
 */
const LEADING_REQUEST =
  /^["'`(]*(?:please\s+)?(?:explain(?:\s+to\s+(?:me|us))?|summari[sz]e|(?:give|tell)\s+(?:me|us)(?:\s+about)?|walk\s+(?:me|us)\s+through|(?:show|find|describe|locate|list)(?:\s+(?:me|us))?(?=\s+(?:how|what|where|which|why|when|whether)\b))\s+/i;

/**
 * The searched code base named at the end ("… in this repo", "… in the codebase?"): every
 * result is in it, so it says nothing about which. Its punctuation stays (a question mark
 * marks a question). "Across the project" and "of the project" say something ("references
 * across the project", "the structure of the project"): they stay.
 */
const TRAILING_SCOPE = /\s+(?:in|within)\s+(?:this|the|our|my)\s+(?:code\s*base|repo(?:sitory)?|project|source(?:\s+(?:code|tree))?)(?=["'`)\]}.!?]*$)/i;

/**
 * What a search looks for and ranks by: the query without a request opening it ("explain how
 * sessions expire" → "how sessions expire", a question; "explain the retry policy" → "the retry
 * policy", a topic phrase) or the code base named at its end ("… in this repo"). Their rare
 * words ("explain", "repo") would otherwise pull in any code that uses them, and a request's
 * verb would hide the question behind it.
 */
export function searchText(query: string): string {
  const rest = query.replace(LEADING_REQUEST, "").replace(TRAILING_SCOPE, "");
  return rest.trim() ? rest : query;
}

/** A question mark ending the query, before any closing quotes or brackets (`"… registered?"`). */
const QUESTION_MARK_AT_END = /\?["'`)\]}]*$/;

const DOC_WORDS = new Set(["doc", "docs", "documentation", "documented", "readme", "guide", "tutorial", "changelog"]);

/**
 * Documentation as a thing code makes or reads ("how doc comments are parsed", "documentation
 * generation for man pages", "generate the docs"): the question is about that code, not a wish
 * for prose.
 */
const DOC_ARTEFACT = /\b(?:doc|docs|documentation)[\s-]+(?:comments?|strings?|blocks?|tags?|gen|generat\w*)\b|\bgenerat\w*\s+(?:the\s+)?(?:doc|docs|documentation)\b/gi;

const TEST_WORDS = new Set(["test", "tests", "testing", "spec", "specs", "mock", "mocks", "fixture", "fixtures", "unittest", "e2e"]);

/**
 * A toolchain's test command ("parse `go test -coverprofile` output", "what `npm test` runs"):
 * the question is about the command or its output, not a request for test files.
 */
const TEST_COMMAND = /\b(?:go|cargo|npm|yarn|pnpm|bun|deno|mix|dotnet|swift|zig build|dart|flutter|rake|mvn|gradle)\s+test\b/gi;

/**
 * A tool the project ships for testing ("test runner for CLI commands", "testing client",
 * "test helpers"): the question is about that tool's code, which lives beside the source.
 */
const TEST_TOOL = /\b(?:test|testing)[\s-]+(?:runners?|clients?|harness(?:es)?|helpers?|utils?|utilit(?:y|ies)|frameworks?|servers?|support|tools?|kits?)\b/gi;

/** A qualified or plain identifier, optionally followed by "()" as users often write. */
const IDENT_TOKEN = new RegExp(`^${QUALIFIED_NAME_SOURCE}(?:\\(\\))?$`, "u");

/**
 * Names that only their marks tell from words, as the query wrote them: a Rust macro (`table!`,
 * `vec!`; not a sentence's last word, "it fails!"), a sigil (`$http`, `@Input`, `@app.route`),
 * a dunder (`__init__`) and an Elixir or Erlang function with its arity (`handle_call/3`,
 * `Ecto.Changeset.cast/4`), each as the name to match (the macro and the function without
 * their mark).
 */
function markedNames(rawTokens: readonly string[]): string[] {
  const out: string[] = [];
  rawTokens.forEach((token, i) => {
    let name: string | null = null;
    if (MACRO_CALL.test(token) && (i < rawTokens.length - 1 || rawTokens.length === 1)) name = token.slice(0, -1);
    else if (SIGILLED.test(token) || DUNDER.test(token)) name = token;
    else if (WITH_ARITY.test(token)) name = token.replace(/\/\d+$/, "");
    if (name && !out.includes(name)) out.push(name);
  });
  return out;
}

const MACRO_CALL = /^[a-z_][a-z0-9_]*!$/;
const SIGILLED = /^[$@][\p{L}_][\p{L}\p{N}_$]*(?:\.[\p{L}_][\p{L}\p{N}_$]*)*$/u;
const DUNDER = /^__[a-z][a-z0-9_]*__$/;
const WITH_ARITY = /^[\p{L}_][\p{L}\p{N}_?!]*(?:\.[\p{L}_][\p{L}\p{N}_?!]*)*\/\d+$/u;

/** A type's arguments right after its name, innermost first: `<T>`, `<String, Object>`, `<'a, T>` (no bare spaces: `x<10 and y>` is no type). */
const TYPE_ARGUMENTS = new RegExp(String.raw`(${QUALIFIED_NAME_SOURCE})<(?:[\p{L}\p{N}_$.:'?*&\[\]]|,\s*)*>`, "gu");
/** A call's arguments right after its name, innermost first: `getUser(id)`, `useEffect(() => {})`; not a plural's `key(s)`. */
const CALL_ARGUMENTS = new RegExp(String.raw`(${IDENTIFIER_SOURCE})\((?!e?s\))(?:[^()]|\([^()]*\))+\)`, "gu");
/**
 * A line of code that declares a name (`struct Router`, `interface Props`, `def parse_url(`,
 * `func (c *Command) Execute`): the name, after the keyword and a Go method's receiver, and
 * the `(` after it. Only a type's capital or that `(` tells it from prose that opens with
 * such a word ("type inference", "module loading order").
 */
const DECLARATION_LINE = new RegExp(
  String.raw`^(?:(?:pub(?:\([\w:]+\))?|export|public|private|protected|internal|async|abstract|final|open|override|sealed|data|default)\s+)*(?:${DECLARATION_KEYWORD_SOURCE})\s+(?:\([^)]*\)\s*)?(${IDENTIFIER_SOURCE})(\()?`,
  "u",
);

/**
 * The query with what code writes around a name set aside: a type's arguments (`Router<S>` →
 * `Router`, `Arc<Mutex<State>>` → `Arc`) and a call's arguments (`getUser(id)` → `getUser()`);
 * and the names that code marked (those, and a declaration line's name), which are read as
 * names even where they are words (`Json<T>`, `struct Config`).
 */
function codeForms(raw: string): { text: string; marked: Set<string> } {
  const marked = new Set<string>();
  const mark = (pattern: RegExp, keep: (name: string) => string) => {
    for (let before = ""; before !== text; ) {
      before = text;
      text = text.replace(pattern, (_, name: string) => {
        marked.add(name);
        return keep(name);
      });
    }
  };
  let text = raw;
  if (text.includes("<")) mark(TYPE_ARGUMENTS, (name) => name);
  if (text.includes("(")) mark(CALL_ARGUMENTS, (name) => `${name}()`);
  const declaration = DECLARATION_LINE.exec(text);
  if (declaration && (declaration[2] || /^\p{Lu}/u.test(declaration[1]))) marked.add(declaration[1]);
  return { text, marked };
}

/** Looks like code rather than an English word: camelCase, snake_case, qualified, ALLCAPS... */
function looksLikeIdentifier(token: string): boolean {
  const bare = token.replace(/\(\)$/, "");
  if (!IDENT_TOKEN.test(token)) return false;
  // A path written with backslashes (`src\app\main.ts`) is no PHP name: those start with a capital.
  if (bare.includes("\\") && !/^\p{Lu}/u.test(bare)) return false;
  if (QUALIFIER.test(bare)) return true;
  if (/_/.test(bare.replace(/^_+|_+$/g, ""))) return true;
  if (/\p{Ll}\p{Lu}/u.test(bare)) return true; // camelCase / PascalCase with a hump
  if (/^\p{Lu}{2,}\p{Ll}/u.test(bare)) return true; // HTTPServer
  if (token.endsWith("()")) return true;
  return false;
}

/** A name without its leading sigils: `$ZodType`, `_transform` and `@Input` are written as `ZodType`... */
export function unsigiled(name: string): string {
  return name.replace(/^[$_@]+/, "");
}

function writtenNamesOf(identifiers: string[]): Set<string> {
  const out = new Set<string>();
  for (const id of identifiers) {
    const parts = nameParts(id);
    out.add(unsigiled(parts.join(".")));
    out.add(unsigiled(parts[parts.length - 1]));
  }
  return out;
}

/** The keys the keyword index records declared names under (`nameKeys`), as the query names them. */
function keysOf(identifier: string): string[] {
  const bare = identifier.replace(/\(\)$/, "");
  // One letter is a key only when it is the whole name (`g`), not a part of a longer one.
  return nameKeys(bare).filter((k) => k.length >= 2 || bare.length === 1);
}

/** Normalised content terms of free text, filler words removed, order kept, no repeats. */
export function contentTerms(text: string): string[] {
  return termsOfTokens(tokenizeCode(text));
}

function termsOfTokens(tokens: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tokens) {
    if (STOPWORDS.has(t)) continue;
    const n = normaliseTerm(t);
    if (!seen.has(n)) {
      seen.add(n);
      out.push(n);
    }
  }
  return out;
}

/**
 * The query's analysis, remembered for the last few queries: one search reads it in the
 * keyword pool, the ranking and the packs' naming. Shared, so never changed by a caller.
 */
export const analyseQuery: (query: string) => QueryAnalysis = boundedMemo(analyse, 64);

function analyse(query: string): QueryAnalysis {
  const raw = query.trim();
  const { text: named, marked } = codeForms(raw);
  // Words with surrounding quotes, punctuation and a pointer's or reference's mark stripped
  // (`*http.Request`, `&Router`); "::", ".", "#" and "()" inside stay. First with a trailing "!"
  // kept: a macro's mark (`table!`), which `tokens` strips as punctuation.
  const markedTokens = named
    .split(/\s+/)
    .map((t) => t.replace(/^["'`(<[{\\*&]+|["'`>\]},;:?.(]+$/g, ""))
    .filter(Boolean);
  const tokens = markedTokens.map((t) => t.replace(/["'`>\]},;:!?.]+$/, "")).filter(Boolean);
  const identifiers = tokens.filter((t) => looksLikeIdentifier(t) || marked.has(t.replace(/\(\)$/, "")));
  for (const name of markedNames(markedTokens)) if (!identifiers.includes(name)) identifiers.push(name);
  const words = named.split(/\s+/).filter(Boolean);
  // A lone capitalised word reads as a type name ("Timeout"); a lone lower-case word
  // ("retries") is as likely a topic as a name, so it stays natural.
  // A lone letter is no topic either: `g`, `T`.
  const singleName = words.length === 1 && IDENT_TOKEN.test(words[0]) && (/^\p{Lu}/u.test(words[0]) || /^\p{L}$/u.test(words[0]));
  if (singleName && identifiers.length === 0) identifiers.push(words[0]);
  const identifierKeys = new Set(identifiers.flatMap(keysOf));
  const fillers = words.filter((w) => STOPWORDS.has(w.toLowerCase())).length;
  const kind: QueryKind = identifiers.length > 0 && words.length <= 3 && fillers === 0 ? "symbol" : "natural";
  const lowerWords = raw.toLowerCase().split(/[^a-z0-9]+/);
  const codeTokens = tokenizeCode(raw);
  const terms = termsOfTokens(codeTokens);
  // Tokenized again only when a test command or tool was dropped (rare): most queries reuse codeTokens.
  const withoutTestCommands = raw.replace(TEST_COMMAND, " ").replace(TEST_TOOL, " ");
  const testTokens = withoutTestCommands === raw ? codeTokens : tokenizeCode(withoutTestCommands);
  // Split again only when a doc comment or generator was dropped (rare).
  const withoutDocArtefacts = raw.replace(DOC_ARTEFACT, " ");
  const docWords = withoutDocArtefacts === raw ? lowerWords : withoutDocArtefacts.toLowerCase().split(/[^a-z0-9]+/);
  return {
    raw,
    kind,
    identifiers,
    identifierKeys,
    writtenNames: writtenNamesOf(identifiers),
    terms,
    termSet: new Set(terms),
    // Words of identifiers count too: `SessionTests` and `RouterSpec` name tests.
    wantsTests: testTokens.some((w) => TEST_WORDS.has(w)),
    wantsDocs: docWords.some((w) => DOC_WORDS.has(w)),
    wordCount: words.length,
    asksQuestion: QUESTION_MARK_AT_END.test(raw) || QUESTION_OPENERS.has(lowerWords.find(Boolean) ?? ""),
    opensWithName: tokens.length > 0 && identifiers.includes(tokens[0]),
  };
}
