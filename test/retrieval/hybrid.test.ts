import { describe, expect, test } from "vitest";
import { KeywordIndex, keywordDocOf, type KeywordDoc } from "../../core/keyword/index.js";
import { hybridSearch, type HybridInput, type RankCandidate } from "../../core/retrieval/index.js";
import type { RankOptions } from "../../core/retrieval/rank.js";
import { MemoryVectorStore } from "../../core/store/memory.js";
import type { ChunkRecord, EmbeddingProvider, EmbedPurpose } from "../../core/types.js";

const DIM = 4;
const v = (...xs: number[]) => Float32Array.from(xs);

type Row = ChunkRecord & { vector: Float32Array | null };

function chunk(id: string, filePath: string, lines: [number, number], content: string, vector: Float32Array | null, extra: Partial<ChunkRecord> = {}): Row {
  return { id, filePath, startLine: lines[0], endLine: lines[1], language: "typescript", kind: "function", symbol: "", context: "", content, contentHash: id, description: "", vector, ...extra };
}

// Vectors stand for meaning: axis 0 "embedding/batching", axis 1 "HTTP", axis 2 "config", axis 3 "tests".
const rows: Row[] = [
  chunk("batcher", "src/embed/batch.ts", [1, 30], "export function splitIntoBatches(items, size) { ... }", v(1, 0, 0, 0), { symbol: "splitIntoBatches" }),
  chunk("batcherInner", "src/embed/batch.ts", [10, 20], "const slice = items.slice(i, i + size) // one batch", v(0.9, 0, 0.1, 0)),
  chunk("embedder", "src/embed/provider.ts", [1, 40], "class LocalEmbedder { embed(texts) { return this.pipe(texts) } }", v(0.8, 0.1, 0, 0.2), { symbol: "LocalEmbedder", kind: "class" }),
  chunk("http", "src/net/http.ts", [1, 25], "export async function postJson(url, body) { return fetch(url, { method: 'POST' }) }", v(0, 1, 0, 0), { symbol: "postJson" }),
  chunk("config", "src/config/load.ts", [1, 50], "export function loadConfig(path) { return parseConfigFile(path) }", v(0, 0, 1, 0), { symbol: "loadConfig" }),
  chunk("pyconfig", "tools/config.py", [1, 12], "def load_config(path): return toml.load(path)", v(0, 0, 0.9, 0.1), { symbol: "load_config", language: "python" }),
  chunk("quirk", "src/embed/batch.ts", [1, 30], "splitIntoBatches drops the last partial batch when size is 0", v(1, 0, 0, 0), { kind: "quirk" }),
  chunk("novec", "src/misc/readme.ts", [1, 5], "loadConfig is documented here", null),
];

async function setup() {
  const store = new MemoryVectorStore(DIM);
  await store.add(rows);
  const keyword = new KeywordIndex();
  keyword.add(rows.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol })));
  return { store, keyword };
}

async function run(overrides: Partial<HybridInput> & { query: string }) {
  const { store, keyword } = await setup();
  return hybridSearch({ queryVector: null, store, keyword, topK: 10, minScore: 0, mode: "hybrid", rank: true, ...overrides });
}

const ids = (results: Awaited<ReturnType<typeof run>>) => results.map((r) => r.chunk.id);

describe("hybridSearch", () => {
  test("keyword-only when there is no query vector: identifier queries still work", async () => {
    const results = await run({ query: "loadConfig" });
    expect(ids(results)[0]).toBe("config");
    expect(ids(results)).toContain("pyconfig"); // load_config: same whole identifier
    expect(ids(results)).toContain("novec"); // rows without vectors are found by keywords
  });

  test("vector-only finds meaning without shared words", async () => {
    const results = await run({ query: "where are texts grouped for the model", queryVector: v(1, 0, 0, 0), mode: "vector" });
    expect(ids(results)[0]).toBe("batcher");
    expect(ids(results)).toContain("embedder");
    expect(ids(results)).not.toContain("novec");
  });

  test("vector mode without a query vector is an error that says what to do", async () => {
    await expect(run({ query: "x", mode: "vector" })).rejects.toThrow(/needs an embedding model.*keyword/);
  });

  test("hybrid: a chunk matching both words and meaning outranks one matching only one", async () => {
    // Vector points at "config"; words name the Python function.
    const results = await run({ query: "load_config toml", queryVector: v(0, 0, 1, 0) });
    expect(ids(results)[0]).toBe("pyconfig");
    expect(ids(results).indexOf("config")).toBeLessThan(ids(results).indexOf("http") === -1 ? Infinity : ids(results).indexOf("http"));
    const hybrid = results.find((r) => r.chunk.id === "pyconfig")!.score;
    const keywordOnly = (await run({ query: "load_config toml", mode: "keyword" })).find((r) => r.chunk.id === "pyconfig")!.score;
    expect(hybrid).not.toBe(keywordOnly);
  });

  test("the first results do not depend on topK", async () => {
    const store = new MemoryVectorStore(DIM);
    const keyword = new KeywordIndex();
    const many: Row[] = [];
    for (let i = 0; i < 120; i++) {
      const words = ["retry", "backoff", "pool", "timeout", "header", "cookie"].filter((_, j) => (i + j) % (2 + (i % 4)) === 0);
      many.push(chunk(`m${i}`, `src/mod${i % 30}/file${i}.ts`, [1, 10 + (i % 20)], `function f${i}() { ${words.join(" ")} ${"x ".repeat(i % 7)} }`, v(Math.sin(i), Math.cos(i), (i % 5) / 5, 0.1)));
    }
    await store.add(many);
    keyword.add(many.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol })));
    const at = async (topK: number) =>
      (await hybridSearch({ query: "retry backoff timeout", queryVector: v(0.5, 0.5, 0.5, 0.1), store, keyword, topK, minScore: 0, mode: "hybrid", rank: true })).map((r) => r.chunk.id);
    const five = await at(5);
    expect(five).toHaveLength(5);
    expect((await at(10)).slice(0, 5)).toEqual(five);
    expect((await at(25)).slice(0, 5)).toEqual(five);
  });

  test("every score is in [0,1], results sorted best first", async () => {
    for (const mode of ["hybrid", "keyword", "vector"] as const) {
      const results = await run({ query: "batch embed config", queryVector: v(0.5, 0.2, 0.5, 0.1), mode });
      expect(results.length).toBeGreaterThan(0);
      for (const r of results) expect(r.score).toBeGreaterThanOrEqual(0), expect(r.score).toBeLessThanOrEqual(1);
      for (let i = 1; i < results.length; i++) expect(results[i].score).toBeLessThanOrEqual(results[i - 1].score);
    }
  });

  test("overlapping chunks of one file are shown once (the better one)", async () => {
    // Both chunks match (lines 10-20 lie inside 1-30); the outer one matches better.
    const results = await run({ query: "splitIntoBatches batch slice", queryVector: v(1, 0, 0, 0) });
    const batchFile = results.filter((r) => r.chunk.filePath === "src/embed/batch.ts");
    expect(batchFile.map((r) => r.chunk.id)).toEqual(["batcher"]);
    // Whatever the query, one file region is one result.
    await expect(run({ query: "batch slice", queryVector: v(0.9, 0, 0.1, 0), filter: { pathPrefixes: ["src/embed/batch"] } })).resolves.toHaveLength(1);
  });

  test("filters reach both sources; quirks stay hidden unless asked for", async () => {
    const py = await run({ query: "config", queryVector: v(0, 0, 1, 0), filter: { languages: ["python"] } });
    expect(ids(py)).toEqual(["pyconfig"]);
    const net = await run({ query: "config post", queryVector: v(0, 0, 1, 0), filter: { pathPrefixes: ["src/net"] } });
    expect(ids(net)).toEqual(["http"]);
    const all = await run({ query: "splitIntoBatches partial batch", queryVector: v(1, 0, 0, 0) });
    expect(ids(all)).not.toContain("quirk");
    const quirks = await run({ query: "splitIntoBatches partial batch", queryVector: v(1, 0, 0, 0), filter: { kinds: ["quirk"] } });
    expect(ids(quirks)).toEqual(["quirk"]);
  });

  test("minScore drops weak results and topK caps the count", async () => {
    const everything = await run({ query: "config batch post", queryVector: v(0.3, 0.3, 0.3, 0.3) });
    expect(everything.length).toBeGreaterThan(3);
    const cut = everything[2].score;
    const strong = await run({ query: "config batch post", queryVector: v(0.3, 0.3, 0.3, 0.3), minScore: cut });
    expect(strong.every((r) => r.score >= cut)).toBe(true);
    expect(strong.length).toBeLessThan(everything.length);
    expect(await run({ query: "config batch post", queryVector: v(0.3, 0.3, 0.3, 0.3), topK: 2 })).toHaveLength(2);
    expect(await run({ query: "config", topK: 0 })).toEqual([]);
  });

  test("the ranking stage runs when asked, before de-duplication and minScore", async () => {
    const seen: string[][] = [];
    const sizes: Array<number | undefined> = [];
    // A stand-in ranker that puts the inner batch chunk first with a perfect score.
    const ranker = (_q: string, cs: RankCandidate[], options: RankOptions) => {
      seen.push(cs.map((c) => c.record.id));
      sizes.push(options.indexChunks);
      return cs.map((c) => ({ ...c, score: c.record.id === "batcherInner" ? 1 : c.score / 2 })).sort((a, b) => b.score - a.score);
    };
    const ranked = await run({ query: "splitIntoBatches batch slice", queryVector: v(1, 0, 0, 0), ranker, minScore: 0.3 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual(expect.arrayContaining(["batcher", "batcherInner"]));
    expect(sizes).toEqual([rows.length]); // the whole index's chunks, for the vectors' share
    expect(ids(ranked)[0]).toBe("batcherInner");
    expect(ids(ranked)).not.toContain("batcher"); // now the overlapping duplicate of a better chunk
    expect(ranked.every((r) => r.score >= 0.3)).toBe(true);
    const plain = await run({ query: "splitIntoBatches batch slice", queryVector: v(1, 0, 0, 0), ranker, rank: false });
    expect(seen).toHaveLength(1);
    expect(ids(plain)[0]).toBe("batcher");
  });

  test("a statement is compared with its candidates' names by a model cheap to run here; questions, keyword searches and remote models are not", async () => {
    const calls: Array<{ texts: string[]; purpose: EmbedPurpose }> = [];
    // Names stand for meaning as the rows' vectors do: the embedder's class says "model", the rest say nothing.
    const model = (cheapToRecompute: boolean, fail = false): EmbeddingProvider => ({
      provider: "local",
      model: "names",
      cheapToRecompute,
      dimension: async () => DIM,
      embed: async (texts, purpose) => {
        calls.push({ texts, purpose });
        if (fail) throw new Error("model gone");
        return texts.map((t) => (t.includes("LocalEmbedder") ? v(1, 0, 0, 0) : v(0, 0, 0, 1)));
      },
    });
    const statement = { query: "turn texts into vectors with the model", queryVector: v(0.6, 0.8, 0, 0) };
    const plain = ids(await run(statement));
    expect(plain[0]).not.toBe("embedder");
    const named = ids(await run({ ...statement, embedder: model(true) }));
    expect(named[0]).toBe("embedder");
    expect(calls).toHaveLength(1);
    expect(calls[0].purpose).toBe("document");
    expect(calls[0].texts).toContain("LocalEmbedder");
    expect(calls[0].texts).toContain("splitIntoBatches");
    // A failing model leaves the ranking as it would be without names, and says why.
    const failures: unknown[] = [];
    expect(ids(await run({ ...statement, embedder: model(true, true), onNamesFailed: (err) => failures.push(err) }))).toEqual(plain);
    expect(failures.map((e) => (e as Error).message)).toEqual(["model gone"]);
    calls.length = 0;
    await run({ ...statement, embedder: model(false) });
    await run({ ...statement, embedder: model(true), mode: "keyword" });
    await run({ query: "how are texts turned into vectors?", queryVector: statement.queryVector, embedder: model(true) });
    await run({ ...statement, embedder: model(true), rank: false });
    expect(calls).toEqual([]);
  });

  test("a request is searched and ranked by what it asks for, not by its wording", async () => {
    const queryVector = v(0.2, 0.3, 0.5, 0.1);
    for (const [request, plain] of [
      ["explain how texts are split into batches", "how texts are split into batches"],
      ["show me where the config is loaded", "where the config is loaded"],
      ["tell me about postJson", "postJson"],
      ["where are texts split into batches in this repo?", "where are texts split into batches?"],
    ]) {
      const asked = await run({ query: request, queryVector });
      expect(asked.length).toBeGreaterThan(0);
      expect(asked).toEqual(await run({ query: plain, queryVector }));
      expect(await run({ query: request, queryVector: null, mode: "keyword" })).toEqual(await run({ query: plain, queryVector: null, mode: "keyword" }));
    }
  });

  test("the built-in ranking stage keeps scores in [0,1] and the order sorted", async () => {
    for (const query of ["load_config", "where are texts split into batches", "postJson"]) {
      const results = await run({ query, queryVector: v(0.2, 0.3, 0.5, 0.1), rank: true });
      expect(results.length).toBeGreaterThan(0);
      for (const r of results) expect(r.score).toBeGreaterThanOrEqual(0), expect(r.score).toBeLessThanOrEqual(1);
      for (let i = 1; i < results.length; i++) expect(results[i].score).toBeLessThanOrEqual(results[i - 1].score);
    }
  });

  test("keyword hits the store no longer holds are skipped, not returned half-empty", async () => {
    const { store, keyword } = await setup();
    await store.deleteByIds(["config"]);
    const results = await hybridSearch({ query: "loadConfig", queryVector: null, store, keyword, topK: 5, minScore: 0, mode: "keyword", rank: true });
    expect(ids(results)).not.toContain("config");
    expect(results.every((r) => r.chunk.content.length > 0)).toBe(true);
  });

  test("the keyword hits' records are read while the vectors are scanned, the other candidates' after, none twice", async () => {
    // The keyword index keeps the vectors (as a real index does): both lists are found here.
    const store = new MemoryVectorStore(DIM);
    await store.add(rows);
    const keyword = new KeywordIndex();
    keyword.add(rows.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol, vector: r.vector })));
    const events: string[] = [];
    const reads: string[][] = [];
    const getByIds = store.getByIds.bind(store);
    store.getByIds = (ids) => (events.push("read"), reads.push(ids), getByIds(ids));
    const search = keyword.search.bind(keyword);
    keyword.search = (...a) => (events.push("keyword searched"), search(...a));
    const searchVector = keyword.searchVector.bind(keyword);
    keyword.searchVector = (...a) => (events.push("vectors scanned"), searchVector(...a));
    const results = await hybridSearch({ query: "loadConfig", queryVector: v(1, 0, 0, 0), store, keyword, topK: 10, minScore: 0, mode: "hybrid", rank: true });
    expect(ids(results)).toContain("config"); // found by its words
    expect(ids(results)).toContain("batcher"); // found by its vector only
    expect(events).toEqual(["keyword searched", "read", "vectors scanned", "read"]);
    expect(new Set(reads[0])).toEqual(new Set(search("loadConfig", 150).map((h) => h.id)));
    expect(reads[1]).toContain("batcher");
    expect(reads.flat()).toHaveLength(new Set(reads.flat()).size);
    expect(new Set(reads.flat())).toEqual(new Set(["config", "pyconfig", "novec", "batcher", "batcherInner", "embedder", "http"]));

    // A store that searches the vectors itself: the records of both lists in one read.
    const plainStore = new MemoryVectorStore(DIM);
    await plainStore.add(rows);
    const plainKeyword = new KeywordIndex();
    plainKeyword.add(rows.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol })));
    const plainReads: string[][] = [];
    const plainGet = plainStore.getByIds.bind(plainStore);
    plainStore.getByIds = (ids) => (plainReads.push(ids), plainGet(ids));
    const plain = await hybridSearch({ query: "loadConfig", queryVector: v(1, 0, 0, 0), store: plainStore, keyword: plainKeyword, topK: 10, minScore: 0, mode: "hybrid", rank: true });
    expect(ids(plain)).toContain("batcher");
    expect(plainReads).toHaveLength(1);
  });

  test("the candidates' files are scored while the store reads their records, as they would be after", async () => {
    const store = new MemoryVectorStore(DIM);
    await store.add(rows);
    const keyword = new KeywordIndex();
    keyword.add(rows.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol, vector: r.vector })));
    const events: string[] = [];
    const getByIds = store.getByIds.bind(store);
    store.getByIds = async (ids) => {
      events.push("read asked");
      await new Promise((r) => setTimeout(r, 20));
      events.push("read done");
      return getByIds(ids);
    };
    const fileScores = keyword.fileScores.bind(keyword);
    keyword.fileScores = (q, files, b) => (events.push("files scored"), fileScores(q, files, b));
    const input = { query: "load config batches", queryVector: v(0.5, 0, 0.5, 0), store, keyword, topK: 10, minScore: 0, mode: "hybrid" as const, rank: true };
    const results = await hybridSearch(input);
    // the reads (the keyword hits', then the rest) are asked for before the files are scored, and end after
    const scored = events.indexOf("files scored");
    expect(scored).toBeGreaterThan(0);
    expect(events.slice(0, scored).every((e) => e === "read asked")).toBe(true);
    expect(events.slice(scored + 1)).toEqual(events.slice(0, scored).map(() => "read done"));
    // the same answer as scoring the records' files after the read (hits that name no file)
    const unnamed = <T extends { filePath?: string }>(hits: T[]) => hits.map(({ filePath: _, ...h }) => h);
    const late = Object.assign(Object.create(keyword) as KeywordIndex, {
      search: (...a: Parameters<KeywordIndex["search"]>) => unnamed(keyword.search(...a)),
      searchVector: (...a: Parameters<KeywordIndex["searchVector"]>) => unnamed(keyword.searchVector(...a)),
    });
    events.length = 0;
    expect(await hybridSearch({ ...input, keyword: late })).toEqual(results);
    expect(events.at(-1)).toBe("files scored");
    expect(events.filter((e) => e === "read done")).toHaveLength(events.filter((e) => e === "read asked").length);
    const plainStore = new MemoryVectorStore(DIM);
    await plainStore.add(rows);
    const plainKeyword = new KeywordIndex(); // no vectors: the store finds the vector hits
    plainKeyword.add(rows.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol })));
    const order: string[] = [];
    const plainGet = plainStore.getByIds.bind(plainStore);
    plainStore.getByIds = async (ids) => (order.push("read"), plainGet(ids));
    const plainScores = plainKeyword.fileScores.bind(plainKeyword);
    plainKeyword.fileScores = (q, f, b) => (order.push("files scored"), plainScores(q, f, b));
    await hybridSearch({ ...input, store: plainStore, keyword: plainKeyword });
    expect(order).toEqual(["read", "files scored"]);
  });

  test("finds its candidates while the store still opens, and reads the records once it is open", async () => {
    const { store, keyword } = await setup();
    keyword.add(rows.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol, vector: r.vector })));
    const events: string[] = [];
    const search = keyword.search.bind(keyword);
    keyword.search = (...a) => (events.push("keyword searched"), search(...a));
    const searchVector = keyword.searchVector.bind(keyword);
    keyword.searchVector = (...a) => (events.push("vectors searched"), searchVector(...a));
    let open!: () => void;
    const opening = new Promise<MemoryVectorStore>((resolve) => (open = () => (events.push("store open"), resolve(store))));
    const input = { query: "load config batches", queryVector: v(0.5, 0, 0.5, 0), keyword, topK: 10, minScore: 0, mode: "hybrid" as const, rank: true };
    const searching = hybridSearch({ ...input, store: opening });
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(["keyword searched", "vectors searched"]);
    open();
    const results = await searching;
    expect(events.at(-1)).toBe("store open");
    expect(results).toEqual(await hybridSearch({ ...input, store }));
  });

  test("a symbol query finds the chunk declaring the name past the hundreds of chunks that use it more", async () => {
    const users = Array.from({ length: 200 }, (_, i) =>
      chunk(`use${i}`, `src/jobs/job${i}.kt`, [1, 8], `fun run${i}(db: Database) = transaction(db) { Transaction.current().commit() } // Transaction ${i}`, null, { language: "kotlin", symbol: `run${i}` }),
    );
    const body = "abstract class Transaction : UserDataHolder(), TransactionInterface {\n" + "    val statements = StringBuilder()\n".repeat(40) + "}";
    const declaring = chunk("decl", "core/src/Transaction.kt", [39, 80], body, null, { language: "kotlin", kind: "class", symbol: "Transaction" });
    const store = new MemoryVectorStore(DIM);
    await store.add([...users, declaring]);
    const search = async (docs: (r: Row) => KeywordDoc) => {
      const keyword = new KeywordIndex();
      keyword.add([...users, declaring].map(docs));
      return hybridSearch({ query: "Transaction", queryVector: null, store, keyword, topK: 10, minScore: 0, mode: "hybrid", rank: true });
    };
    const results = await search((r) => keywordDocOf(r, r.content));
    expect(results[0].chunk.id).toBe("decl");
    // The whole pool, as evaluation replays it, holds the declaration beside the 150 best.
    const keyword = new KeywordIndex();
    keyword.add([...users, declaring].map((r) => keywordDocOf(r, r.content)));
    const pool = await hybridSearch({ query: "Transaction", queryVector: null, store, keyword, topK: 10, minScore: 0.99, mode: "keyword", rank: true, pool: true });
    expect(pool).toHaveLength(151);
    expect(pool.map((x) => x.chunk.id)).toContain("decl");
    expect(pool.map((x) => x.score)).toEqual([...pool.map((x) => x.score)].sort((a, b) => b - a));
    // Without its declaration on record, BM25 alone leaves it out of the candidates.
    const unrecorded = await search((r) => ({ ...keywordDocOf(r, r.content), declares: [] }));
    expect(unrecorded.map((x) => x.chunk.id)).not.toContain("decl");
  });

  test("bad arguments fail with a clear message", async () => {
    await expect(run({ query: "x", topK: -1 })).rejects.toThrow(/topK/);
    await expect(run({ query: "x", minScore: 2 })).rejects.toThrow(/minScore/);
    await expect(run({ query: "x", mode: "fuzzy" as never })).rejects.toThrow(/mode/);
  });
});
