// A source file past `indexing.maxFileSizeBytes` (up to `indexing.maxSourceFileSizeBytes`) is
// indexed only when it reads as written by hand. Past a megabyte, a file with a source
// extension is as often generated (protocol buffers, parser tables, an amalgamation of a
// library's files) or minified (a bundle, inlined data) as it is a compiler's checker: those
// would fill the index with thousands of chunks nobody asks for.
import { overlongLineShare } from "../chunking/index.js";
import { tooLargeReason } from "../files/size-limits.js";

/** Generators say so in the first lines; the convention's words, whatever the comment syntax. */
const HEAD_CHARS = 2048;
/**
 * Hand-written code has next to no line longer than a chunk may be; a tenth of the text in such
 * lines is a bundle, or inlined data (a WebAssembly module in base64), whatever the rest holds.
 */
const MAX_OVERLONG_SHARE = 0.1;
const GENERATED_MARK = /\b(?:code generated|do not edit|@generated|auto-?generated|automatically generated|generated (?:automatically|by|from)|amalgamation)\b/i;

/**
 * Why a large source text is left out, or null when it is indexed: a generator's mark in its
 * first lines, or a tenth of it in lines longer than a chunk may be (`maxChars`).
 */
export function largeSourceSkipReason(text: string, maxFileSizeBytes: number, maxChars: number): string | null {
  const mark = GENERATED_MARK.exec(text.slice(0, HEAD_CHARS));
  const share = mark ? 0 : overlongLineShare(text, maxChars);
  if (!mark && share <= MAX_OVERLONG_SHARE) return null;
  const what = mark
    ? `marked as generated ("${mark[0]}" in its first lines)`
    : `minified or holding data (${Math.round(share * 100)}% of it in lines over ${maxChars} characters)`;
  const limit = { bytes: maxFileSizeBytes, key: "indexing.maxFileSizeBytes" } as const;
  return `${tooLargeReason(text.length, limit)} and ${what}; source code past it is indexed only when written by hand`;
}
