import { describe, expect, test } from "vitest";
import { RunMemo } from "../../core/run-memo.js";
import { forEachWordRun, scanWordRuns } from "../../core/word-runs.js";

/** Every run of `text` with the value `memo` gives it. */
function values<V>(memo: RunMemo<V>, text: string, joinHyphens: boolean): V[] {
  const out: V[] = [];
  memo.forEach(text, joinHyphens, (v) => void out.push(v));
  return out;
}

describe("scanWordRuns", () => {
  test("gives a run the same hash wherever it stands, and different runs mostly different ones", () => {
    const text = "fooBar baz-qux 日本 𝑥y fooBar x baz-qux fooBaR";
    const byRun = new Map<string, Set<number>>();
    scanWordRuns(text, true, (start, end, hash) => {
      const run = text.slice(start, end);
      byRun.set(run, (byRun.get(run) ?? new Set()).add(hash));
    });
    expect([...byRun.keys()]).toEqual(["fooBar", "baz-qux", "日本", "𝑥y", "x", "fooBaR"]);
    for (const hashes of byRun.values()) expect(hashes.size).toBe(1);
    expect(new Set([...byRun.values()].map((h) => [...h][0])).size).toBe(byRun.size);
  });
});

describe("RunMemo", () => {
  test("gives each run what the function gives it, computing it once per run", () => {
    const computed: string[] = [];
    const memo = new RunMemo((run) => {
      computed.push(run);
      return run.toUpperCase();
    }, 100);
    const text = "let max-width = maxWidth(a, b) + max-width; naïve 𝑥 naïve";
    const expected: string[] = [];
    forEachWordRun(text, true, (run) => void expected.push(run.toUpperCase()));
    expect(values(memo, text, true)).toEqual(expected);
    expect(values(memo, text, true)).toEqual(expected);
    expect(computed).toEqual(["let", "max-width", "maxWidth", "a", "b", "naïve", "𝑥"]);
  });

  test("tells apart runs whose hashes share a slot, and keeps a value of null", () => {
    // A table of 2 slots: every run shares one of them with another.
    const memo = new RunMemo((run) => (run.startsWith("n") ? null : run.length), 1);
    const text = "alpha beta null gamma alpha none beta";
    expect(values(memo, text, false)).toEqual([5, 4, null, 5, 5, null, 4]);
  });

  test("forgets everything once full, and still answers right afterwards", () => {
    let calls = 0;
    const memo = new RunMemo((run) => {
      calls++;
      return run.length;
    }, 3);
    const words = Array.from({ length: 50 }, (_, i) => `word${i}`);
    const text = words.join(" ");
    expect(values(memo, text, false)).toEqual(words.map((w) => w.length));
    expect(calls).toBe(50);
    // The last runs seen are remembered: no new call for them.
    expect(values(memo, "word49", false)).toEqual([6]);
    expect(calls).toBe(50);
  });

  test("stops when the callback returns false", () => {
    const memo = new RunMemo((run) => run, 10);
    const seen: string[] = [];
    memo.forEach("one two three four", false, (v) => seen.push(v) < 2);
    expect(seen).toEqual(["one", "two"]);
  });
});
