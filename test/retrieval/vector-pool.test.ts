// The vectors' candidate pool: the nearest chunks, then source code past them, so that tests,
// examples and documents near the query do not take the place of the code a user asks about.
import { describe, expect, test } from "vitest";
import { KeywordIndex } from "../../core/keyword/index.js";
import { hybridSearch } from "../../core/retrieval/index.js";
import { sourceFirstPool } from "../../core/retrieval/vector-pool.js";
import { MemoryVectorStore } from "../../core/store/memory.js";
import type { ChunkRecord, ScoredId } from "../../core/types.js";

const hit = (filePath: string, i: number): ScoredId => ({ id: `${filePath}#${i}`, score: 1 - i / 100, filePath });

describe("sourceFirstPool", () => {
  test("keeps the nearest as they are, then only source code until the pool holds that much of it", () => {
    const hits = [hit("tests/test_auth.py", 0), hit("src/auth.py", 1), hit("docs/auth.md", 2), hit("tests/test_login.py", 3), hit("examples/login.py", 4), hit("src/session.py", 5), hit("README.rst", 6), hit("src/tokens.py", 7)];
    const pool = sourceFirstPool(hits, 3);
    expect(pool.map((h) => h.filePath)).toEqual(["tests/test_auth.py", "src/auth.py", "docs/auth.md", "src/session.py", "src/tokens.py"]);
    // Where the nearest are all code, the pool is the nearest.
    const code = [0, 1, 2, 3, 4].map((i) => hit(`src/m${i}.py`, i));
    expect(sourceFirstPool(code, 3)).toEqual(code.slice(0, 3));
  });

  test("an example folder the project publishes counts as source; hits that do not name their file stop the pool at its size", () => {
    const hits = [hit("tests/a.js", 0), hit("examples/jsm/Pass.js", 1), hit("examples/demo.js", 2)];
    expect(sourceFirstPool(hits, 1, { isPublishedExample: (p) => p.startsWith("examples/jsm/") }).map((h) => h.filePath)).toEqual(["tests/a.js", "examples/jsm/Pass.js"]);
    const unnamed = [0, 1, 2, 3].map((i) => ({ id: `c${i}`, score: 1 - i / 10 }));
    expect(sourceFirstPool(unnamed, 2)).toEqual(unnamed.slice(0, 2));
  });

  test("a file its generator marked does not count as source", () => {
    const hits = [hit("src/auth.py", 0), hit("src/auth_pb.py", 1), hit("src/session.py", 2), hit("src/tokens.py", 3)];
    const pool = sourceFirstPool(hits, 2, { isMarkedGenerated: (p) => p === "src/auth_pb.py" });
    expect(pool.map((h) => h.filePath)).toEqual(["src/auth.py", "src/auth_pb.py", "src/session.py"]);
  });
});

describe("the vectors' pool in a search", () => {
  test("a source chunk past fifty nearer tests still reaches the results of a vector search", async () => {
    // Vectors stand for meaning on two axes: 60 tests sit nearer the query than the code they test.
    const chunk = (id: string, filePath: string, vector: number[]): ChunkRecord & { vector: Float32Array } => ({
      id, filePath, startLine: 1, endLine: 10, language: "python", kind: "function", symbol: id, context: "", content: `def ${id}(): pass`, contentHash: id, description: "", vector: Float32Array.from(vector),
    });
    const rows = [
      ...Array.from({ length: 60 }, (_, i) => chunk(`test_refresh_${i}`, `tests/test_refresh_${i}.py`, [1, 0.1 + i / 1000])),
      chunk("refresh_token", "src/auth/tokens.py", [1, 0.5]),
    ];
    const store = new MemoryVectorStore(2);
    await store.add(rows);
    const keyword = new KeywordIndex();
    keyword.add(rows.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol, vector: r.vector })));
    const results = await hybridSearch({ query: "how is an expired session renewed", queryVector: Float32Array.from([1, 0]), store, keyword, topK: 5, minScore: 0, mode: "vector", rank: true });
    expect(results[0].chunk.id).toBe("refresh_token");
  });
});
