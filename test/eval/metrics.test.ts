import { describe, expect, it } from "vitest";
import {
  fileNdcgAtK,
  parseQueryFile,
  percentile,
  recallAtK,
  reciprocalRankAtK,
  runQueries,
  summarise,
  formatComparison,
  spanCovers,
  spanMatches,
} from "../../core/eval/index.js";

const hit = (filePath: string, startLine = 1, endLine = 10) => ({ filePath, startLine, endLine });

describe("chunk-level matching", () => {
  it("needs the same file and overlapping lines", () => {
    const rel = { filePath: "src/a.ts", startLine: 20, endLine: 30 };
    expect(spanMatches(hit("src/a.ts", 25, 40), rel)).toBe(true);
    expect(spanMatches(hit("src/a.ts", 30, 31), rel)).toBe(true);
    expect(spanMatches(hit("src/a.ts", 1, 19), rel)).toBe(false);
    expect(spanMatches(hit("src/b.ts", 20, 30), rel)).toBe(false);
  });

  it("treats a span without lines as the whole file", () => {
    expect(spanMatches(hit("./src/a.ts", 500, 600), { filePath: "src/a.ts" })).toBe(true);
  });
});

describe("the strict chunk rule", () => {
  it("asks a hit to cover half of a short target", () => {
    const rel = { filePath: "src/a.ts", startLine: 20, endLine: 29 };
    expect(spanCovers(hit("src/a.ts", 1, 24), rel)).toBe(true);
    expect(spanCovers(hit("src/a.ts", 1, 23), rel)).toBe(false);
    expect(spanCovers(hit("src/a.ts", 29, 40), rel)).toBe(false);
    expect(spanCovers(hit("src/b.ts", 20, 29), rel)).toBe(false);
  });

  it("asks at most 20 lines of a long target", () => {
    const rel = { filePath: "a.py", startLine: 100, endLine: 299 };
    expect(spanCovers(hit("a.py", 280, 330), rel)).toBe(true);
    expect(spanCovers(hit("a.py", 281, 330), rel)).toBe(false);
  });

  it("scores strict MRR beside the lenient one, and splits queries by whether they name the symbol", async () => {
    const queries = parseQueryFile(
      [
        JSON.stringify({ id: "n", query: "parse_limit", repo: "r", relevant: [{ filePath: "a.py", startLine: 10, endLine: 19 }], containsSymbolName: true }),
        JSON.stringify({ id: "u", query: "read the limit", repo: "r", relevant: [{ filePath: "a.py", startLine: 10, endLine: 19 }], containsSymbolName: false }),
      ].join("\n"),
    );
    // A neighbour touching one line first, then the target itself.
    const s = summarise(await runQueries(queries, async () => [hit("a.py", 1, 10), hit("a.py", 10, 19)]));
    expect(s.overall.mrr10).toBe(1);
    expect(s.overall.strictMrr10).toBe(0.5);
    expect(Object.keys(s.bySymbolNamed)).toEqual(["named", "unnamed"]);
    expect(s.bySymbolNamed.unnamed.count).toBe(1);
  });
});

describe("MRR@10 and Recall@k", () => {
  const relevant = [{ filePath: "a.py", startLine: 50, endLine: 60 }];

  it("gives 1/rank of the first chunk that overlaps", () => {
    // rank 1: right file, wrong lines; rank 2: other file; rank 3: hit -> 1/3
    const results = [hit("a.py", 1, 20), hit("b.py"), hit("a.py", 55, 70)];
    expect(reciprocalRankAtK(results, relevant, 10)).toBeCloseTo(1 / 3, 10);
    expect(recallAtK(results, relevant, 1)).toBe(0);
    expect(recallAtK(results, relevant, 3)).toBe(1);
  });

  it("is 0 when the answer comes after rank 10", () => {
    const results = [...Array.from({ length: 10 }, (_, i) => hit(`x${i}.py`)), hit("a.py", 50, 60)];
    expect(reciprocalRankAtK(results, relevant, 10)).toBe(0);
  });

  it("counts the share of relevant spans found", () => {
    const two = [{ filePath: "a.py" }, { filePath: "b.py" }];
    expect(recallAtK([hit("b.py"), hit("c.py")], two, 5)).toBe(0.5);
  });
});

describe("file-level NDCG@10", () => {
  it("matches a hand-computed value", () => {
    // files in order: a (rel), c, a (dup, ignored), b (rel) -> distinct a, c, b
    // DCG = 1/log2(2) + 1/log2(4) = 1.5 ; IDCG (2 relevant) = 1 + 1/log2(3) = 1.6309
    const results = [hit("a.go"), hit("c.go"), hit("a.go", 40, 50), hit("b.go")];
    const relevant = [{ filePath: "a.go" }, { filePath: "b.go", startLine: 1, endLine: 3 }];
    expect(fileNdcgAtK(results, relevant, 10)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 10);
  });

  it("is 1 for a perfect ranking and 0 for no relevant file", () => {
    expect(fileNdcgAtK([hit("a.rs")], [{ filePath: "a.rs" }], 10)).toBe(1);
    expect(fileNdcgAtK([hit("z.rs")], [{ filePath: "a.rs" }], 10)).toBe(0);
  });
});

describe("percentiles and summaries", () => {
  it("uses nearest rank", () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 50)).toBe(0);
  });

  it("groups by category and language, and compares two runs", async () => {
    const queries = parseQueryFile(
      [
        JSON.stringify({ id: "1", query: "retry", category: "semantic", language: "go", repo: "r", relevant: [{ filePath: "a.go" }] }),
        JSON.stringify({ id: "2", query: "Foo", category: "symbol", language: "rust", repo: "r", relevant: [{ filePath: "b.rs" }] }),
      ].join("\n"),
    );
    const good = summarise(await runQueries(queries, async (q) => [hit(q.id === "1" ? "a.go" : "b.rs")]));
    const bad = summarise(await runQueries(queries, async (q) => [hit("z"), hit(q.id === "1" ? "a.go" : "b.rs")]));
    expect(good.overall.mrr10).toBe(1);
    expect(bad.overall.mrr10).toBe(0.5);
    expect(good.byCategory.symbol.count).toBe(1);
    expect(Object.keys(good.byLanguage)).toEqual(["go", "rust"]);
    const table = formatComparison("bad", bad, "good", good);
    expect(table).toMatch(/overall\s+2\s+0\.631\s+1\.000\s+\+0\.369/);
    expect(good.bySymbolNamed).toEqual({});
  });
});

describe("query files", () => {
  it("names the line and the fix for bad input", () => {
    expect(() => parseQueryFile('{"query":"x","relevant":[]}', "q.jsonl")).toThrow(/q\.jsonl:1: "relevant" must be a non-empty array/);
    expect(() => parseQueryFile('{"query":"x","relevant":[{"filePath":"a"}]}\nnot json', "q.jsonl")).toThrow(/q\.jsonl:2: not valid JSON/);
    expect(() => parseQueryFile('{"query":"x","relevant":[{"filePath":"a","startLine":3}]}', "q")).toThrow(/both startLine and endLine/);
    expect(() => parseQueryFile("\n\n", "empty.jsonl")).toThrow(/no queries found/);
  });

  it("fills defaults for optional fields", () => {
    const [q] = parseQueryFile('{"query":"x","relevant":[{"filePath":"a"}]}');
    expect(q).toMatchObject({ id: "q1", category: "uncategorised", language: "unknown", repo: "default" });
  });
});

describe("configurations", () => {
  it("knows the built-in presets, with or without leading dashes", async () => {
    const { builtInPreset, presetFromJson } = await import("../../core/eval/index.js");
    expect(builtInPreset("--no-rank")).toEqual({ name: "no-rank", overrides: {}, search: { rank: false } });
    expect(builtInPreset("bm25")!.search).toEqual({ mode: "keyword", rank: false });
    expect(builtInPreset("fastest")).toBeNull();
    expect(presetFromJson("x", { retrieval: { rank: false } })).toEqual({ name: "x", overrides: { retrieval: { rank: false } }, search: { mode: undefined, rank: undefined } });
    expect(presetFromJson("y", { search: { mode: "vector" } }).search.mode).toBe("vector");
    expect(() => presetFromJson("z", { search: { mode: "fuzzy" } })).toThrow(/z: search.mode must be/);
    expect(() => presetFromJson("w", [1])).toThrow(/must hold a JSON object/);
  });
});
