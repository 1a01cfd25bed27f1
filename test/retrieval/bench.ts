// Measures the store, the keyword index and hybrid retrieval on real source text (files from
// node_modules, cut into 40-line chunks) with random unit vectors. Not a test: prints numbers.
// Run: node test/retrieval/run-bench.mjs [chunks] [keyword|load|recall]   (bundles this file, then runs it)
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KeywordIndex, type KeywordDoc } from "../../core/keyword/index.js";
import { hybridSearch } from "../../core/retrieval/index.js";
import { openLanceStore } from "../../core/store/lancedb.js";
import { MemoryVectorStore } from "../../core/store/memory.js";
import type { ChunkRecord } from "../../core/types.js";

const DIM = 384;
const TARGET = Number(process.argv[2] ?? 50_000);
/** "keyword": only the keyword index (100k-chunk memory and load numbers); "load": reload its file; "recall": ANN recall. */
const ONLY = process.argv[3] ?? "";
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function walk(dir: string, out: string[], limit: number): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries.sort()) {
    if (out.length >= limit) return;
    const p = join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(p, out, limit);
    else if (/\.(js|ts|mjs|cjs|mts|md|py|go|rs|c|h)$/.test(name) && !/\.(d|min)\.[mc]?[jt]s$/.test(name) && st.size > 500 && st.size < 12_000_000) out.push(p);
  }
}

function corpus(target: number): ChunkRecord[] {
  const files: string[] = [];
  walk("node_modules", files, 100_000);
  const out: ChunkRecord[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    for (let s = 0; s < lines.length && out.length < target; s += 40) {
      const content = lines.slice(s, s + 40).join("\n");
      const sym = /function\s+([A-Za-z_$][\w$]*)/.exec(content)?.[1] ?? "";
      out.push({ id: `${file}:${s}`, filePath: file, startLine: s + 1, endLine: Math.min(lines.length, s + 40), language: file.endsWith(".ts") ? "typescript" : "javascript", kind: sym ? "function" : "lines", symbol: sym, context: "", content, contentHash: `${file}:${s}`, description: "" });
    }
    if (out.length >= target) break;
  }
  // Not enough distinct source: repeat it under another folder (ids and paths stay unique).
  const distinct = out.length;
  for (let copy = 2; out.length < target && distinct > 0; copy++) {
    for (let i = 0; i < distinct && out.length < target; i++) {
      const r = out[i];
      const filePath = `copy${copy}/${r.filePath}`;
      out.push({ ...r, id: `${filePath}:${r.startLine}`, filePath });
    }
  }
  return out;
}

let seed = 12345;
function rnd(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648 - 0.5;
}
function unit(): Float32Array {
  const v = new Float32Array(DIM);
  let n = 0;
  for (let i = 0; i < DIM; i++) n += (v[i] = rnd()) ** 2;
  n = Math.sqrt(n);
  for (let i = 0; i < DIM; i++) v[i] /= n;
  return v;
}

function pct(times: number[], p: number): string {
  const s = [...times].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2);
}
/** CPU milliseconds per operation of the last timeIt() (all threads): on a busy machine, a fairer figure than wall time. */
let lastCpu = 0;
async function timeIt(n: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  lastCpu = (cpu.user + cpu.system) / 1000 / n;
  return out;
}
const cpuNote = () => `(cpu ${lastCpu.toFixed(2)} ms/op)`;
const mb = (b: number) => (b / 1048576).toFixed(1) + " MB";

/** Hand-written queries, plus (main) 60 more drawn from the corpus so that timed searches rarely repeat. */
const QUERIES = ["function to parse arguments", "getUserById", "read file sync", "tokenizer split words", "createIndex vector", "error handling retry", "promise resolve reject", "buffer to string utf8", "map set delete keys", "async iterator next"];

/**
 * HNSW-SQ recall against exact search on clustered vectors (50 centres plus noise: closer to real
 * embeddings than uniform random ones), at the search settings the store uses and nearby ones.
 */
async function annRecall(n: number): Promise<void> {
  const lancedb = await import("@lancedb/lancedb");
  const dir = mkdtempSync(join(tmpdir(), "ocr-recall-"));
  try {
    const db = await lancedb.connect(dir);
    const centres = Array.from({ length: 50 }, () => Array.from({ length: DIM }, () => rnd()));
    const near = (c: number[]) => c.map((x) => x + rnd() * 0.6);
    const rows = Array.from({ length: n }, (_, i) => ({ id: i, vector: near(centres[i % 50]) }));
    const table = await db.createTable("t", rows.slice(0, 5000));
    for (let b = 5000; b < n; b += 5000) await table.add(rows.slice(b, b + 5000));
    let t = performance.now();
    await table.createIndex("vector", { config: lancedb.Index.hnswSq({ distanceType: "cosine" }) });
    console.log(`ann recall: ${n} clustered vectors, HNSW-SQ build ${(performance.now() - t).toFixed(0)} ms`);
    const queries = Array.from({ length: 20 }, (_, i) => near(centres[i]));
    const truth: Set<number>[] = [];
    for (const q of queries) {
      const exact = await table.vectorSearch(q).distanceType("cosine").bypassVectorIndex().limit(10).select(["id"]).toArray();
      truth.push(new Set(exact.map((r) => r.id as number)));
    }
    for (const [ef, refine] of [[64, 0], [160, 0], [160, 2], [320, 2]]) {
      let hit = 0;
      let inPool = 0;
      t = performance.now();
      for (let i = 0; i < queries.length; i++) {
        let q = table.vectorSearch(queries[i]).distanceType("cosine").limit(40).ef(ef).select(["id"]);
        if (refine) q = q.refineFactor(refine);
        const got = await q.toArray();
        for (const r of got.slice(0, 10)) if (truth[i].has(r.id as number)) hit++;
        // Hybrid search fetches 40 candidates and re-ranks them: what matters is the true top 10 being among them.
        for (const r of got) if (truth[i].has(r.id as number)) inPool++;
      }
      const per = queries.length * 10;
      console.log(`ann recall: ef ${ef} refine ${refine}: recall@10 ${(hit / per).toFixed(3)}, true top-10 within the 40 fetched ${(inPool / per).toFixed(3)}, ${((performance.now() - t) / queries.length).toFixed(1)} ms/query`);
    }
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (ONLY === "recall") return annRecall(TARGET);
  if (ONLY === "load") {
    // Load timing alone, on the file a previous "keyword" run wrote.
    const bytes = new Uint8Array(readFileSync(join("test", ".cache", "keyword-bench.bin")));
    const times = await timeIt(5, () => KeywordIndex.deserialize(bytes));
    console.log(`keyword: load ${mb(bytes.length)} p50 ${pct(times, 50)} ms`);
    return;
  }
  const rows = corpus(TARGET);
  // Queries of two or three words taken from random chunks: every timed hybrid query is different,
  // so the store's record cache cannot flatter the numbers.
  for (let i = 0; QUERIES.length < 70; i++) {
    const words = rows[Math.floor((rnd() + 0.5) * rows.length)].content.match(/[A-Za-z]{4,}/g) ?? [];
    if (words.length < 3) continue;
    const pick = () => words[Math.floor((rnd() + 0.5) * words.length)];
    QUERIES.push(`${pick()} ${pick()}${i % 2 ? " " + pick() : ""}`);
  }
  const files = new Set(rows.map((r) => r.filePath)).size;
  console.log(`corpus: ${rows.length} chunks from ${files} files, ${mb(rows.reduce((a, r) => a + r.content.length, 0))} of text`);

  // Keyword index.
  const docs: KeywordDoc[] = rows.map((r) => ({ id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol }));
  gc();
  const heap0 = used();
  let t = performance.now();
  const keyword = new KeywordIndex();
  for (let i = 0; i < docs.length; i += 500) keyword.add(docs.slice(i, i + 500));
  keyword.merge();
  const buildMs = performance.now() - t;
  gc();
  const heapIndex = used() - heap0;
  t = performance.now();
  const bytes = keyword.serialize();
  const serMs = performance.now() - t;
  gc();
  const beforeLoad = used();
  t = performance.now();
  const loaded = KeywordIndex.deserialize(bytes);
  const loadMs = performance.now() - t;
  gc();
  console.log(`keyword: a loaded (search-only) index holds ${mb(used() - beforeLoad)}`);
  console.log(`keyword: ${loaded.size} documents`);
  const kq = await timeIt(200, (i) => loaded.search(QUERIES[i % QUERIES.length], 40));
  const kqf = await timeIt(200, (i) => loaded.search(QUERIES[i % QUERIES.length], 40, { pathPrefixes: ["node_modules/typescript/"] }));
  console.log(`keyword: build ${buildMs.toFixed(0)} ms (${(rows.reduce((a, r) => a + r.content.length, 0) / 1048576 / (buildMs / 1000)).toFixed(1)} MB/s), memory ${mb(heapIndex)}, serialized ${mb(bytes.length)} in ${serMs.toFixed(0)} ms, load ${loadMs.toFixed(0)} ms`);
  console.log(`keyword: query p50 ${pct(kq, 50)} ms p95 ${pct(kq, 95)} ms; with path filter p50 ${pct(kqf, 50)} ms ${cpuNote()}`);

  if (ONLY === "keyword") {
    writeFileSync(join("test", ".cache", "keyword-bench.bin"), bytes);
    return;
  }

  // LanceDB.
  const dir = mkdtempSync(join(tmpdir(), "ocr-bench-"));
  try {
    const store = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM, annMinRows: Infinity });
    const withVectors = rows.map((r) => ({ ...r, vector: unit() }));
    const first = withVectors.slice(0, 10_000);
    t = performance.now();
    for (let i = 0; i < first.length; i += 1000) await store.add(first.slice(i, i + 1000));
    console.log(`lancedb: add 10k rows (1k batches) ${(performance.now() - t).toFixed(0)} ms`);
    const qv = Array.from({ length: 70 }, unit);
    let s = await timeIt(30, (i) => store.searchVector(qv[i % 20], 40));
    console.log(`lancedb 10k: search p50 ${pct(s, 50)} ms p95 ${pct(s, 95)} ms ${cpuNote()}`);
    s = await timeIt(30, (i) => store.searchVector(qv[i % 20], 40, { pathPrefixes: ["node_modules/typescript/"], languages: ["javascript"] }));
    console.log(`lancedb 10k: filtered search p50 ${pct(s, 50)} ms ${cpuNote()}`);
    const paths = [...new Set(first.map((r) => r.filePath))].slice(0, 20);
    s = await timeIt(20, (i) => store.deleteByFilePaths([paths[i]]));
    console.log(`lancedb 10k: delete one file p50 ${pct(s, 50)} ms ${cpuNote()}`);
    s = await timeIt(20, (i) => store.getByIds(first.slice(i * 40, i * 40 + 40).map((r) => r.id)));
    console.log(`lancedb 10k: getByIds(40) p50 ${pct(s, 50)} ms`);

    const rest = withVectors.slice(10_000);
    for (let i = 0; i < rest.length; i += 5000) await store.add(rest.slice(i, i + 5000));
    const n = await store.count();
    s = await timeIt(30, (i) => store.searchVector(qv[i % 20], 40));
    console.log(`lancedb ${n}: flat search p50 ${pct(s, 50)} ms p95 ${pct(s, 95)} ms`);
    const hy = await timeIt(30, (i) => hybridSearch({ query: QUERIES[i], queryVector: qv[i], store, keyword: loaded, topK: 10, minScore: 0, mode: "hybrid", rank: true }));
    console.log(`hybrid ${n} (flat vectors): p50 ${pct(hy, 50)} ms p95 ${pct(hy, 95)} ms ${cpuNote()}`);
    const ko = await timeIt(30, (i) => hybridSearch({ query: QUERIES[40 + i], queryVector: null, store, keyword: loaded, topK: 10, minScore: 0, mode: "hybrid", rank: true }));
    console.log(`hybrid ${n} keyword-only: p50 ${pct(ko, 50)} ms p95 ${pct(ko, 95)} ms ${cpuNote()}`);

    await store.close();
    // Reopen with the default ANN threshold: the next checkpoint builds the index, as at the end of a pass.
    const indexed = await openLanceStore({ uri: dir, tableName: "chunks", dimension: DIM });
    t = performance.now();
    await indexed.checkpoint();
    console.log(`lancedb ${n}: HNSW-SQ build at checkpoint ${(performance.now() - t).toFixed(0)} ms (index ready: ${indexed.annIndexReady})`);
    const exact = new MemoryVectorStore(DIM);
    await exact.add(withVectors.filter((r) => !paths.includes(r.filePath)));
    let hit = 0;
    for (const q of qv) {
      const truth = new Set((await exact.searchVector(q, 10)).map((h) => h.id));
      for (const h of await indexed.searchVector(q, 10)) if (truth.has(h.id)) hit++;
    }
    s = await timeIt(30, (i) => indexed.searchVector(qv[i % 20], 40));
    console.log(`lancedb ${n}: HNSW search p50 ${pct(s, 50)} ms p95 ${pct(s, 95)} ms ${cpuNote()}, recall@10 ${(hit / (qv.length * 10)).toFixed(3)} (random vectors: the hard case)`);
    const hy2 = await timeIt(30, (i) => hybridSearch({ query: QUERIES[i + 10], queryVector: qv[i + 40], store: indexed, keyword: loaded, topK: 10, minScore: 0, mode: "hybrid", rank: true }));
    console.log(`hybrid ${n} (HNSW): p50 ${pct(hy2, 50)} ms p95 ${pct(hy2, 95)} ms ${cpuNote()}`);
    await indexed.close();

    const mem = new MemoryVectorStore(DIM);
    await mem.add(withVectors);
    s = await timeIt(20, (i) => mem.searchVector(qv[i % 20], 40));
    console.log(`memory store ${n}: search p50 ${pct(s, 50)} ms ${cpuNote()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
