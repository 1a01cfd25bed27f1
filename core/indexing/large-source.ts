// A source file past `indexing.maxFileSizeBytes` (up to `indexing.maxSourceFileSizeBytes`) is
// indexed only when it reads as written by hand. Past a megabyte, a file with a source
// extension is as often generated (protocol buffers, parser tables, an amalgamation of a
// library's files) or minified (a bundle, inlined data) as it is a compiler's checker: those
// would fill the index with thousands of chunks nobody asks for.
import { overlongLineShare } from "../chunking/index.js";
import { generatedMark } from "../files/generated-mark.js";
import { tooLargeReason } from "../files/size-limits.js";

/**
 * Generators say so in the first lines. Past a megabyte looser words than a generator's mark
 * (generated-mark.ts) suffice: "generated from", "do not edit", "amalgamation".
 */
const HEAD_CHARS = 2048;
const LOOSE_GENERATED_WORDS = /\b(?:code generated|do not edit|auto-?generated|automatically generated|generated (?:automatically|by|from)|amalgamation)\b/i;
/**
 * Hand-written code has next to no line longer than a chunk may be; a tenth of the text in such
 * lines is a bundle, or inlined data (a WebAssembly module in base64), whatever the rest holds.
 */
const MAX_OVERLONG_SHARE = 0.1;

/**
 * A bundler's output reads as code but restates its inputs: esbuild's and webpack's runtime
 * helpers open it, or a source map is named at its end (compiled output of any tool).
 */
const BUNDLE_MARK = /\bvar __defProp = Object\.defineProperty\b|\bvar __commonJS = |\b__webpack_require__\b|\bwebpackBootstrap\b|\bparcelRequire\b/;
const SOURCE_MAP_MARK = /[#@] sourceMappingURL=\S+\s*(?:\*\/)?\s*$/;
const TAIL_CHARS = 512;

/**
 * Why a large source text is left out, or null when it is indexed: a generator's mark in its
 * first lines, a bundler's helpers or a source map, or a tenth of it in lines longer than a
 * chunk may be (`maxChars`). `size`: the file's bytes, for the reason.
 */
export function largeSourceSkipReason(text: string, maxFileSizeBytes: number, maxChars: number, size: number = text.length): string | null {
  const what = builtBy(text, maxChars);
  if (what === null) return null;
  const limit = { bytes: maxFileSizeBytes, key: "indexing.maxFileSizeBytes" } as const;
  return `${tooLargeReason(size, limit)} and ${what}; source code past it is indexed only when written by hand`;
}

/** What says a text was not written by hand, in words, or null. */
function builtBy(text: string, maxChars: number): string | null {
  const head = text.slice(0, HEAD_CHARS);
  const mark = generatedMark(head) ?? LOOSE_GENERATED_WORDS.exec(head)?.[0];
  if (mark) return `marked as generated ("${mark}" in its first lines)`;
  if (BUNDLE_MARK.test(head)) return "a bundler's output (its runtime helpers open it)";
  if (SOURCE_MAP_MARK.test(text.slice(-TAIL_CHARS))) return "compiled output (it names its source map)";
  const share = overlongLineShare(text, maxChars);
  if (share > MAX_OVERLONG_SHARE) return `minified or holding data (${Math.round(share * 100)}% of it in lines over ${maxChars} characters)`;
  return null;
}
