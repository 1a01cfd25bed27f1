// Indexing and search speed on the corpus, each number beside the floor measured in the same
// run: reading and hashing every indexed file once (what any indexer must at least do).
import { createHash } from "node:crypto";
import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleAndImport } from "../../eval/bundle-and-import.mjs";
import { peakRssMb, resetPeakRss } from "../peak-rss.mjs";

/** The product's manifest reader, bundled from sources once per process (both sections use it). */
let manifestModule = null;
const manifestReader = () => (manifestModule ??= bundleAndImport("core/indexing/manifest.ts", "bench-manifest.mjs"));

/** Queries a user might type: identifiers and plain-language questions about the corpus. */
const QUERIES = [
  "WebGLRenderer",
  "how are shadow maps rendered",
  "formatDistance",
  "parse an ISO date string",
  "button ripple effect",
  "Quaternion slerp",
  "add business days to a date",
  "theme palette primary color",
  "BufferGeometry computeVertexNormals",
  "locale week starts on monday",
  "useMediaQuery",
  "raycaster intersect objects",
  "Autocomplete filter options",
  "differenceInCalendarMonths",
  "texture loader from url",
  "modal backdrop click close",
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function timeIt(fn) {
  const t = performance.now();
  const r = fn();
  return r instanceof Promise ? r.then((v) => ({ ms: performance.now() - t, value: v })) : { ms: performance.now() - t, value: r };
}

/**
 * A section indexing `subdir` of the corpus (all of it when empty); keyword-only unless
 * `embed` (then with the configured embedding model, the bundled one by default).
 */
function indexingSection(name, { subdir = "", embed: alwaysEmbed = false } = {}) {
  return {
    name,
    async run({ lib, corpusRoot: sharedCorpus, cacheDir, log, embed }) {
      // A private copy per run: the edit step changes a file, and runs must not disturb each other.
      const runDir = join(cacheDir, `run-${process.pid}`);
      rmSync(runDir, { recursive: true, force: true });
      cpSync(join(sharedCorpus, subdir), join(runDir, "corpus"), { recursive: true });
      const corpusRoot = join(runDir, "corpus");
      const stateDir = join(runDir, "state");
      try {
        return await measure({ lib, corpusRoot, stateDir, log, embed: embed || alwaysEmbed });
      } finally {
        rmSync(runDir, { recursive: true, force: true });
      }
    },
  };
}

/** The whole corpus, keyword-only: walking, chunking, the keyword index and the store. */
export default indexingSection("indexing");

/** three.js sources (~760 files) with the bundled embedding model: the same numbers with vectors. */
export const indexingWithModel = indexingSection("indexing-with-model", { subdir: "three/src", embed: true });

async function measure({ lib, corpusRoot, stateDir, log, embed }) {
  {
    // This section runs in the bench's process: its peak starts from what the process holds
    // now, not from an earlier section's.
    resetPeakRss();
    const overrides = {
      vectorStore: { path: stateDir },
      logging: { logFilePath: "" },
      // Keyword-only unless --embed: the model's speed is its own section, and on two cores it
      // would dominate every other number here.
      ...(embed ? {} : { embedding: { provider: "local", model: "./no-model-for-the-bench" } }),
    };
    // Step timings of each pass come through the engine's debug log.
    const passTimings = [];
    const logger = {
      debug: (m, d) => m.startsWith("index pass timings") && passTimings.push(d),
      info() {},
      error: (m, d) => log(`  error: ${m} ${d ? JSON.stringify(d) : ""}`),
    };
    const engine = await lib.openEngine({ root: corpusRoot, overrides: { ...overrides, logging: { logFilePath: "", level: "debug" } }, logger });
    try {
      let lastLog = 0;
      const cpuBefore = process.cpuUsage();
      const full = await timeIt(() =>
        engine.index({
          onProgress: (p) => {
            if (Date.now() - lastLog > 5000) {
              lastLog = Date.now();
              log(`  ${p.phase} ${p.filesDone}/${p.filesTotal} files, ${p.chunksDone} chunks`);
            }
          },
        }),
      );
      const s = full.value;
      // CPU time of every thread in this process (workers included): unlike wall time, it
      // does not grow when other programs compete for the cores.
      const cpu = process.cpuUsage(cpuBefore);
      const cpuSecs = (cpu.user + cpu.system) / 1e6;
      const status = await engine.status();
      // The manifest keeps its per-file table apart (a binary file): read it as the engine does.
      const { readManifest } = await manifestReader();
      const read = readManifest(engine.stateDir);
      if (read.status !== "ok") throw new Error(`the index's manifest cannot be read (${read.status}${read.reason ? `: ${read.reason}` : ""})`);
      const manifest = read.manifest;
      const paths = Object.keys(manifest.files);

      // Floor: read + sha1 of every indexed file, once.
      const floor = timeIt(() => {
        let bytes = 0;
        for (const p of paths) {
          const b = readFileSync(join(corpusRoot, p));
          bytes += b.length;
          createHash("sha1").update(b).digest();
        }
        return bytes;
      });
      const statFloor = timeIt(() => {
        for (const p of paths) statSync(join(corpusRoot, p));
      });

      const noop = await timeIt(() => engine.index());
      if (noop.value.bytesRead !== 0) throw new Error(`a no-op pass read ${noop.value.bytesRead} bytes`);

      // One-file edit, restored afterwards so the cached corpus stays pristine.
      const target = paths.find((p) => p.endsWith(".js") && manifest.files[p].size > 4000 && manifest.files[p].size < 20000) ?? paths[0];
      const original = readFileSync(join(corpusRoot, target));
      let edit, editWatch;
      try {
        writeFileSync(join(corpusRoot, target), Buffer.concat([original, Buffer.from("\n// benchmark edit\n")]));
        edit = await timeIt(() => engine.index());
        writeFileSync(join(corpusRoot, target), Buffer.concat([original, Buffer.from("\n// benchmark edit, watch path\n")]));
        editWatch = await timeIt(() => engine.index({ onlyPaths: [target] }));
      } finally {
        writeFileSync(join(corpusRoot, target), original);
        await engine.index({ onlyPaths: [target] });
      }
      if (edit.value.filesIndexed !== 1 || editWatch.value.filesIndexed !== 1) throw new Error("the edited file was not re-indexed");

      for (const q of QUERIES) await engine.search(q, { topK: 10 }); // warm-up
      const times = [];
      for (let round = 0; round < 5; round++) {
        for (const q of QUERIES) times.push((await timeIt(() => engine.search(q, { topK: 10 }))).ms);
      }
      times.sort((a, b) => a - b);
      // before the recall check, which loads a model and scans the table of its own
      const peakRss = peakRssMb();
      const recall = status.keywordOnlyReason ? null : await annRecall(lib, engine.stateDir);

      const secs = full.ms / 1000;
      const mb = s.bytesRead / 1024 / 1024;
      const floorSecs = floor.ms / 1000;
      const floorMb = floor.value / 1024 / 1024;
      return {
        info: {
          files: s.filesScanned,
          filesIndexed: s.filesIndexed,
          chunks: status.chunks,
          megabytes: +mb.toFixed(1),
          mode: status.keywordOnlyReason ? "keyword-only" : `vectors (${status.provider}/${status.model})`,
          editedFile: target,
          "full pass steps (ms)": JSON.stringify(passTimings[0]),
          "one-file edit steps (ms)": JSON.stringify(passTimings[2]),
          "watch-path edit steps (ms)": JSON.stringify(passTimings[3]),
        },
        rows: [
          { metric: "full index: files/s", value: s.filesScanned / secs, floor: paths.length / floorSecs, target: "" },
          { metric: "full index: MB/s", value: mb / secs, floor: floorMb / floorSecs, target: ">= 2 MB/s" },
          { metric: "full index: chunks/s", value: status.chunks / secs, floor: null, target: "" },
          { metric: "full index: seconds", value: secs, floor: floorSecs, target: "" },
          { metric: "full index: CPU seconds (all threads)", value: cpuSecs, floor: null, target: "" },
          { metric: "full index: MB per CPU second", value: mb / cpuSecs, floor: null, target: "x2 cores >= 2 MB/s" },
          { metric: "no-op re-index: ms", value: noop.ms, floor: statFloor.ms, floorNote: "stat every file", target: "<= 1000 ms" },
          { metric: "one-file edit re-index (full walk): ms", value: edit.ms, floor: floor.ms / paths.length, floorNote: "read+hash one file", target: "<= 300 ms" },
          { metric: "one-file edit re-index (watch path): ms", value: editWatch.ms, floor: floor.ms / paths.length, floorNote: "read+hash one file", target: "<= 300 ms" },
          { metric: "query p50: ms", value: percentile(times, 50), floor: null, target: "<= 20 ms" },
          { metric: "query p95: ms", value: percentile(times, 95), floor: null, target: "" },
          ...(recall
            ? [
                { metric: "vector search recall@10 (index vs exact)", value: recall.at10, floor: null, target: "" },
                { metric: "vector search recall@50 (index vs exact)", value: recall.at50, floor: null, target: "" },
              ]
            : []),
          { metric: "peak RSS: MB", value: peakRss, floor: null, target: "<= 500 MB" },
        ],
      };
    } finally {
      await engine.close();
    }
  }
}

/**
 * How many of the exact nearest neighbours the store's vector search (through its HNSW index,
 * as searches run) finds, for the model's embeddings of the natural-language evaluation
 * questions; exact = LanceDB's flat search over every row.
 */
async function annRecall(lib, stateDir) {
  const lancedb = await import("@lancedb/lancedb");
  const here = new URL(".", import.meta.url).pathname;
  const questions = readFileSync(join(here, "..", "..", "eval", "queries", "natural.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).query);
  const { provider } = await lib.createEmbeddingProvider(lib.DEFAULT_CONFIG, { root: stateDir });
  const queries = await provider.embed(questions, "query");
  await provider.close?.();
  const dimension = queries[0].length;
  const store = await lib.openVectorStore({ uri: stateDir, tableName: "chunks", dimension });
  const db = await lancedb.connect(stateDir);
  const table = await db.openTable("chunks");
  const out = {};
  try {
    for (const k of [10, 50]) {
      let found = 0;
      for (const q of queries) {
        const exact = await table.vectorSearch(Array.from(q)).distanceType("cosine").bypassVectorIndex().limit(k).select(["id"]).toArray();
        const truth = new Set(exact.map((r) => r.id));
        found += (await store.searchVector(q, k)).filter((h) => truth.has(h.id)).length;
      }
      out[`at${k}`] = found / (k * queries.length);
    }
  } finally {
    table.close();
    db.close();
    await store.close();
  }
  return out;
}
