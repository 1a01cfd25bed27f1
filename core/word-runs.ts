// Runs of word characters (letters, digits, `_`, `$`) in a text, found by a scan over char
// codes instead of a Unicode regex: a regex match costs a result array per run, and both the
// keyword index and the embedding preprocessor walk every indexed chunk this way (on a 9k-file
// tree that was ~1 GB of short-lived garbage a pass). Portable: no Node built-ins.

/** 1 for the ASCII word characters: a-z, A-Z, 0-9, `_`, `$`. */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_$]/.test(ch)) ASCII_WORD[c] = 1;
}

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
/** Non-ASCII code points of the Basic Multilingual Plane already classified: 1 word, 2 not. */
const bmpClass = new Uint8Array(0x10000);

/** How many UTF-16 units the word character at `i` spans (1 or 2); 0 when it is none. */
function wordCharUnits(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_WORD[c];
  if (c < 0xd800 || c > 0xdfff) {
    let k = bmpClass[c];
    if (k === 0) bmpClass[c] = k = LETTER_OR_NUMBER.test(String.fromCharCode(c)) ? 1 : 2;
    return k === 1 ? 1 : 0;
  }
  // a surrogate pair: a letter or digit beyond U+FFFF (rare in code); a lone surrogate is none
  const cp = text.codePointAt(i)!;
  return cp > 0xffff && LETTER_OR_NUMBER.test(String.fromCodePoint(cp)) ? 2 : 0;
}

/**
 * Calls `fn` with each maximal run of `[\p{L}\p{N}_$]` in `text`, in order. With `joinHyphens`,
 * runs joined by single hyphens count as one (`max-width`, the `dry-run` of `--dry-run`),
 * as the Unicode regex `[\p{L}\p{N}_$]+(?:-[\p{L}\p{N}_$]+)*` would match them. The scan stops
 * when `fn` returns false.
 */
export function forEachWordRun(text: string, joinHyphens: boolean, fn: (run: string) => boolean | void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let units = wordCharUnits(text, i);
    if (units === 0) {
      i++;
      continue;
    }
    const start = i;
    i += units;
    for (;;) {
      while (i < n && (units = wordCharUnits(text, i)) > 0) i += units;
      if (!joinHyphens || i + 1 >= n || text.charCodeAt(i) !== 45 || (units = wordCharUnits(text, i + 1)) === 0) break;
      i += 1 + units;
    }
    if (fn(text.slice(start, i)) === false) return;
  }
}
