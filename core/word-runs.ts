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

/** FNV-1a over UTF-16 code units: the hash a run's scan folds as it goes (`scanWordRuns`). */
const HASH_START = 0x811c9dc5 | 0;
const HASH_PRIME = 0x01000193;

/**
 * Calls `fn` with where each maximal run of `[\p{L}\p{N}_$]` in `text` starts and ends, in order,
 * and a hash of its code units (the same for the same run wherever it is: `RunMemo` finds it by
 * that, without cutting it out). With `joinHyphens`, runs joined by single hyphens count as one
 * (`max-width`, the `dry-run` of `--dry-run`), as the Unicode regex
 * `[\p{L}\p{N}_$]+(?:-[\p{L}\p{N}_$]+)*` would match them. The scan stops when `fn` returns false.
 */
export function scanWordRuns(text: string, joinHyphens: boolean, fn: (start: number, end: number, hash: number) => boolean | void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let units = wordCharUnits(text, i);
    if (units === 0) {
      i++;
      continue;
    }
    const start = i;
    let hash = HASH_START;
    for (;;) {
      for (const stop = i + units; i < stop; i++) hash = Math.imul(hash ^ text.charCodeAt(i), HASH_PRIME);
      if (i < n && (units = wordCharUnits(text, i)) > 0) continue;
      if (!joinHyphens || i + 1 >= n || text.charCodeAt(i) !== 45 || (units = wordCharUnits(text, i + 1)) === 0) break;
      hash = Math.imul(hash ^ 45, HASH_PRIME);
      i++;
    }
    if (fn(start, i, hash) === false) return;
  }
}

/** `scanWordRuns` with each run cut out of the text. */
export function forEachWordRun(text: string, joinHyphens: boolean, fn: (run: string) => boolean | void): void {
  scanWordRuns(text, joinHyphens, (start, end) => fn(text.slice(start, end)));
}
