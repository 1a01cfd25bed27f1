// `npm run model:eval`: quality and speed of the shipped model, through the product's own
// local provider (transformers.js + onnxruntime-node, 2 threads).
// Dev sets: code bases listed with role "dev" in sources.json (never trained on, none held
// out). Each documented unit gives a query (its doc summary) and a target (its code without
// the doc); the corpus is every unit of that code base. Reported per retrieval mode
// (model-only, BM25-only, hybrid), split by whether the query names the symbol.
import { buildSync } from "esbuild";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { basename, dirname, resolve } from "node:path";
import { loadPreprocess, SHIPPED, STAGE, WORK } from "./common.mjs";

const MAX_QUERIES_PER_SET = 400;
/** `--stage` evaluates the freshly trained model in .work/stage before it is shipped. */
const modelArg = process.argv.indexOf("--model");
const TARGET = modelArg > 0 ? resolve(process.argv[modelArg + 1]) : process.argv.includes("--stage") ? STAGE : SHIPPED;
const SPEED_CHUNKS = 2000;

const { preprocessForEmbedding } = await loadPreprocess();
const bundle = join(WORK, "embedding-bundle.mjs");
buildSync({
  entryPoints: [join(SHIPPED, "..", "..", "core", "embedding", "index.ts")],
  outfile: bundle,
  bundle: true,
  format: "esm",
  platform: "node",
  packages: "external",
  logLevel: "error",
});
const { createEmbeddingProvider } = await import(bundle);
const { DEFAULT_CONFIG } = await import(await bundleDefaults());

async function bundleDefaults() {
  const out = join(WORK, "defaults-bundle.mjs");
  buildSync({ entryPoints: [join(SHIPPED, "..", "..", "core", "config", "defaults.ts")], outfile: out, bundle: true, format: "esm", platform: "neutral", logLevel: "error" });
  return out;
}

// ---------- BM25 over the same code-aware words the model sees ----------
function bm25Index(docs) {
  const toks = docs.map((d) => preprocessForEmbedding(d, 4096).split(" ").filter(Boolean));
  const df = new Map();
  toks.forEach((t) => new Set(t).forEach((w) => df.set(w, (df.get(w) ?? 0) + 1)));
  const avg = toks.reduce((s, t) => s + t.length, 0) / Math.max(1, toks.length);
  const tfs = toks.map((t) => {
    const m = new Map();
    for (const w of t) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  });
  const N = docs.length;
  return (query) => {
    const q = [...new Set(preprocessForEmbedding(query).split(" ").filter(Boolean))];
    return tfs.map((tf, i) => {
      let s = 0;
      for (const w of q) {
        const f = tf.get(w);
        if (!f) continue;
        const idf = Math.log(1 + (N - df.get(w) + 0.5) / (df.get(w) + 0.5));
        s += (idf * f * 2.2) / (f + 1.2 * (0.25 + 0.75 * (toks[i].length / avg)));
      }
      return s;
    });
  };
}

const rankOf = (scores, target) => {
  const t = scores[target];
  let r = 1;
  for (let i = 0; i < scores.length; i++) if (i !== target && scores[i] > t) r++;
  return r;
};

function ranks(scores) {
  const order = scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0]);
  const r = new Array(scores.length);
  order.forEach(([, i], k) => (r[i] = k + 1));
  return r;
}

/** Reciprocal-rank fusion, the usual way to merge a lexical and a vector ranking. */
function rrf(a, b, k = 60) {
  const ra = ranks(a);
  const rb = ranks(b);
  return a.map((_, i) => 1 / (k + ra[i]) + 1 / (k + rb[i]));
}

const dot = (a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

// ---------- quality ----------
const t0 = Date.now();
const config = { ...DEFAULT_CONFIG, embedding: { ...DEFAULT_CONFIG.embedding, model: TARGET } };
const { provider, reason } = await createEmbeddingProvider(config, { root: process.cwd() });
const loadMs = Date.now() - t0;
if (!provider) throw new Error(reason);

const acc = {}; // mode -> split -> {mrr, hit, n}
function record(mode, split, rank) {
  for (const s of [split, "all"]) {
    const a = ((acc[mode] ??= {})[s] ??= { mrr: 0, hit: 0, n: 0 });
    a.n++;
    if (rank <= 10) {
      a.mrr += 1 / rank;
      a.hit++;
    }
  }
}

const perSet = [];
for (const f of readdirSync(join(WORK, "dev")).sort()) {
  const { source, units } = JSON.parse(readFileSync(join(WORK, "dev", f), "utf8"));
  if (units.length < 20) continue;
  const corpus = units.map((u) => `${u.path}\n${u.code}`);
  const queryIdx = units.map((_, i) => i).filter((i) => units[i].doc.split(" ").length >= 3).slice(0, MAX_QUERIES_PER_SET);
  const docVecs = await provider.embed(corpus, "document");
  const qVecs = await provider.embed(queryIdx.map((i) => units[i].doc), "query");
  const bm25 = bm25Index(corpus);
  const before = { ...(acc.model?.all ?? { mrr: 0, n: 0 }) };
  queryIdx.forEach((target, k) => {
    const u = units[target];
    const named = u.symbol.length >= 3 && u.doc.toLowerCase().includes(u.symbol.toLowerCase()) ? "names symbol" : "no symbol";
    const vec = docVecs.map((d) => dot(d, qVecs[k]));
    const lex = bm25(u.doc);
    record("model", named, rankOf(vec, target));
    record("bm25", named, rankOf(lex, target));
    record("hybrid", named, rankOf(rrf(vec, lex), target));
  });
  const after = acc.model.all;
  perSet.push({ set: source.name, units: units.length, queries: queryIdx.length, modelMrr: (after.mrr - before.mrr) / (after.n - before.n) });
}

// ---------- speed: typical ~250-token chunks ----------
const allCode = readdirSync(join(WORK, "dev")).flatMap((f) => JSON.parse(readFileSync(join(WORK, "dev", f), "utf8")).units.map((u) => `${u.path}\n${u.code}`));
const chunks = [];
let buf = "";
for (const c of allCode) {
  buf += c + "\n";
  if (buf.length >= 1000) {
    chunks.push(buf.slice(0, 1000));
    buf = "";
  }
}
while (chunks.length < SPEED_CHUNKS) chunks.push(...chunks.slice(0, SPEED_CHUNKS - chunks.length));
chunks.length = SPEED_CHUNKS;
const { AutoTokenizer, env } = await import("@huggingface/transformers");
env.localModelPath = dirname(TARGET) + "/";
const tok = await AutoTokenizer.from_pretrained(basename(TARGET));
const meanTokens = chunks.slice(0, 200).reduce((s, c) => s + tok(preprocessForEmbedding(c)).input_ids.dims[1], 0) / 200;
await provider.embed(chunks.slice(0, 64), "document"); // warm-up
const cpuSecs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const ts = Date.now();
const c0 = cpuSecs();
await provider.embed(chunks, "document");
const secs = (Date.now() - ts) / 1000;
// CPU seconds over both cores: what the pass costs on an idle 2-core machine, whatever else
// was running during the measurement
const cpu = cpuSecs() - c0;
const idleSecs = Math.max(cpu / 2, 1e-9);
const loadAvg = (await import("node:os")).loadavg()[0].toFixed(1);
const bytes = chunks.reduce((s, c) => s + Buffer.byteLength(c), 0);

const sizeMb = readdirSync(TARGET, { recursive: true })
  .map((p) => join(TARGET, p))
  .filter((p) => statSync(p).isFile())
  .reduce((s, p) => s + statSync(p).size, 0) / 1e6;

// ---------- report ----------
const fmt = (a) => (a ? `${(a.mrr / a.n).toFixed(3)} / ${(a.hit / a.n).toFixed(3)} (n=${a.n})` : "-");
const lines = [
  `| retrieval | all: MRR@10 / R@10 | query names the symbol | query does not name it |`,
  `|---|---|---|---|`,
  ...["model", "bm25", "hybrid"].map((m) => `| ${m === "model" ? "model only" : m === "bm25" ? "BM25 only" : "hybrid (RRF k=60)"} | ${fmt(acc[m].all)} | ${fmt(acc[m]["names symbol"])} | ${fmt(acc[m]["no symbol"])} |`),
  "",
  `per dev set (model-only MRR@10): ${perSet.map((p) => `${p.set} ${p.modelMrr.toFixed(3)} (${p.queries} q / ${p.units} units)`).join("; ")}`,
  "",
  `speed (2 threads, batch ${DEFAULT_CONFIG.embedding.batchSize}, chunks of 1,000 chars ≈ ${meanTokens.toFixed(0)} tokens): wall clock ${(SPEED_CHUNKS / secs).toFixed(0)} chunks/s, ${(bytes / 1e6 / secs).toFixed(2)} MB/s; CPU time ${cpu.toFixed(2)} s for ${SPEED_CHUNKS} chunks = ${(SPEED_CHUNKS / cpu).toFixed(0)} chunks per CPU-second (${(SPEED_CHUNKS / idleSecs).toFixed(0)} chunks/s, ${(bytes / 1e6 / idleSecs).toFixed(2)} MB/s on 2 idle cores); load average during the run ${loadAvg}`,
  `model size on disk: ${sizeMb.toFixed(1)} MB; load time ${loadMs} ms; dimension ${await provider.dimension()}`,
];
console.log(`model: ${TARGET}`);
console.log(lines.join("\n"));
writeFileSync(join(WORK, "eval.json"), JSON.stringify({ acc, perSet, chunksPerSec: SPEED_CHUNKS / secs, mbPerSec: bytes / 1e6 / secs, cpuSeconds: cpu, loadAvg, meanTokens, sizeMb, loadMs }, null, 1));
writeFileSync(join(WORK, "eval.md"), lines.join("\n") + "\n");
