// Text normalisation applied before tokenization for models trained on it (the bundled
// model is). It must behave identically wherever it runs — indexing in Node, search in the
// browser, and the training pipeline in models/ (which bundles this very file) — so it uses
// no Node built-ins and no locale-dependent APIs.
//
// Why: code identifiers glue words together (`getUserById`, `parse_json_file`). A word-level
// vocabulary would see each as one rare token; split, they share meaning with the prose of
// a query ("get the user by id").

import { boundedMemo } from "../bounded-memo.js";
import { forEachWordRun } from "../word-runs.js";

/** Name of the preprocessing scheme; a model declares it in config.json (`opencode_rag.preprocess`). */
export const IDENTIFIER_PREPROCESS = "identifiers-v1";

// One identifier part: `HTTP` in `HTTPServer`, `User` in `getUser`, `json`, `42`.
const PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|\p{L}+/gu;

/** Longest token kept: longer runs are hashes, base64 blobs or minified noise. */
const MAX_TOKEN_CHARS = 40;
/** A joined identifier is appended only up to this length (longer ones are rarely typed). */
const MAX_JOINED_CHARS = 24;

/** Splits one identifier into lower-case parts: `getUserByID_v2` → [get, user, by, id, v, 2]. */
export function splitIdentifier(token: string): string[] {
  const parts: string[] = [];
  for (const piece of token.split(/[_$]+/)) {
    if (!piece) continue;
    for (const m of piece.matchAll(PART)) parts.push(m[0].toLowerCase());
  }
  return parts;
}

/**
 * The words one source token expands to (its parts, then the joined identifier), or null when
 * it yields none; remembered (code repeats its identifiers: on the bench tree this halves the
 * time of preprocessing).
 */
/** The words one run of letters and digits becomes (null: none); preprocessWords' step per run. */
export const expandRun = boundedMemo((token: string): readonly string[] | null => {
  if (token.length > MAX_TOKEN_CHARS) return null;
  const parts = splitIdentifier(token);
  if (parts.length === 0) return null;
  if (parts.length > 1) {
    const joined = parts.join("");
    if (joined.length <= MAX_JOINED_CHARS) parts.push(joined);
  }
  return parts;
}, 20_000);

/**
 * Turns source code or prose into space-separated lower-case words: identifiers are split
 * into their parts followed by the whole identifier (`getUserById` → `get user by id
 * getuserbyid`), punctuation and operators are dropped. At most `maxWords` words are kept.
 */
export function preprocessForEmbedding(text: string, maxWords = 512): string {
  const out: string[] = [];
  // runs of letters and digits, with `_` and `$`, which join identifiers in most languages
  forEachWordRun(text, false, (run) => {
    const words = expandRun(run);
    if (words === null) return true;
    for (const w of words) out.push(w);
    return out.length < maxWords;
  });
  if (out.length > maxWords) out.length = maxWords;
  return out.join(" ");
}
