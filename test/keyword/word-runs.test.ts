import { describe, expect, test } from "vitest";
import { forEachWordRun } from "../../core/word-runs.js";

const WORD = /[\p{L}\p{N}_$]+/gu;
const IDENTIFIER = /[\p{L}\p{N}_$]+(?:-[\p{L}\p{N}_$]+)*/gu;

function runs(text: string, joinHyphens: boolean): string[] {
  const out: string[] = [];
  forEachWordRun(text, joinHyphens, (r) => void out.push(r));
  return out;
}

// Letters, digits and separators of many kinds: ASCII, accented and combining, CJK, Arabic-Indic
// digits, an astral letter (𝑥), emoji, a lone surrogate, hyphens single and doubled.
const PIECES = ["a", "Z", "9", "_", "$", "-", "--", " ", ".", "\n", "é", "e\u0301", "日本", "٣", "𝑥", "🚀", "\ud800", "\udc00", "ß", "Ω", "(", "'", "\t"];

function randomText(seed: number, length: number): string {
  let s = seed;
  let text = "";
  for (let i = 0; i < length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    text += PIECES[s % PIECES.length];
  }
  return text;
}

describe("forEachWordRun", () => {
  test("finds exactly the runs the Unicode regexes match, with and without joined hyphens", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const text = randomText(seed, 1 + (seed % 60));
      expect(runs(text, false)).toEqual(text.match(WORD) ?? []);
      expect(runs(text, true)).toEqual(text.match(IDENTIFIER) ?? []);
    }
  });

  test("reads code as identifiers and kebab-case words", () => {
    expect(runs("const maxWidth = opts['max-width'] ?? $el.get_size(--dry-run);", true)).toEqual(["const", "maxWidth", "opts", "max-width", "$el", "get_size", "dry-run"]);
    expect(runs("a-b -c d- e--f", true)).toEqual(["a-b", "c", "d", "e", "f"]);
    expect(runs("naïve 日本語 𝑥𝑦 🚀x", false)).toEqual(["naïve", "日本語", "𝑥𝑦", "x"]);
  });

  test("stops when the callback returns false", () => {
    const seen: string[] = [];
    forEachWordRun("one two three four", false, (r) => seen.push(r) < 2);
    expect(seen).toEqual(["one", "two"]);
  });
});
