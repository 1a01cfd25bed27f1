// Code-aware tokenizer: identifiers are split into their words (camelCase, PascalCase,
// snake_case, kebab-case, letter/digit boundaries) and ALSO kept whole with separators
// removed, so `getUserById`, `get_user_by_id` and the words "get user by id" all meet.
// Portable: no Node built-ins.

/** An identifier-like run; kebab-joined runs (`max-width`, `--dry-run`) count as one identifier. */
const IDENTIFIER = /[\p{L}\p{N}_$]+(?:-[\p{L}\p{N}_$]+)*/gu;
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
 * Lower-cased tokens of `text`, in order, with repeats (term frequency matters).
 * For each identifier: its words of two or more characters, then the whole identifier
 * (separators removed) when it has more than one word.
 */
export function tokenizeCode(text: string): string[] {
  const out: string[] = [];
  const identifier = new RegExp(IDENTIFIER.source, "gu");
  let match: RegExpExecArray | null;
  while ((match = identifier.exec(text)) !== null) {
    const id = match[0];
    // Fast path for the bulk of code and prose: one plain word (`return`, `Value`, `42`).
    if (PLAIN_WORD.test(id)) {
      if (id.length >= 2 && id.length <= MAX_TOKEN_LENGTH) out.push(id.toLowerCase());
      continue;
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
  return out;
}

/**
 * Folds simple English plurals so a query for "embeddings" finds `embedding` (and back).
 * Deliberately tiny: code words are not English, and a stemmer that is too clever merges
 * unrelated identifiers. Applied to index and query terms alike.
 */
export function normaliseTerm(token: string): string {
  const n = token.length;
  if (n <= 3 || token.charCodeAt(n - 1) !== 115 /* s */) return token;
  if (token.endsWith("ies") && n > 4) return token.slice(0, -3) + "y";
  if (token.endsWith("ss") || token.endsWith("us") || token.endsWith("is")) return token;
  // Digits before the s (`utf16s`) or a non-letter: leave alone.
  const prev = token.charCodeAt(n - 2);
  if (prev < 97 || prev > 122) return token;
  return token.slice(0, -1);
}

/** Tokens of a workspace-relative path: directory and file-name words; the extension is dropped. */
export function tokenizePath(filePath: string): string[] {
  const slash = filePath.lastIndexOf("/");
  const base = filePath.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return tokenizeCode(filePath.slice(0, slash + 1).replace(/[/.]/g, " ") + " " + stem);
}
