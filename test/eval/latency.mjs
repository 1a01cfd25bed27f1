#!/usr/bin/env node
// Query latency in process on a large tree (default: the benchmark corpus of `npm run bench`,
// about 9k files, copied so its own index stays untouched). Runs every natural dev query
// through Engine.search with the default configuration (hybrid + ranking) and with plain
// BM25, after one warm-up, and prints p50/p95. Needs the built library (node esbuild.config.mjs).
//
// Usage: node test/eval/latency.mjs [TREE]
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const source = process.argv[2] ?? join(root, "test", ".cache", "bench", "corpus");
if (!existsSync(source)) {
  console.error(`latency: ${source} does not exist (run npm run bench once, or pass a source tree)`);
  process.exit(2);
}
const tree = join(root, "test", ".cache", "eval", "latency-tree");
if (!existsSync(join(tree, ".opencode"))) {
  rmSync(tree, { recursive: true, force: true });
  cpSync(source, tree, { recursive: true, filter: (p) => !p.includes("/.opencode") });
}
const { openEngine } = await import(pathToFileURL(join(root, "dist", "library.js")).href);
const queries = readFileSync(join(here, "queries", "natural.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l).query);

const engine = await openEngine({ root: tree });
try {
  const s = await engine.index();
  const status = await engine.status();
  console.log(`tree: ${status.files} files, ${status.chunks} chunks (${s.filesIndexed} indexed now in ${(s.durationMs / 1000).toFixed(0)} s); keyword-only: ${status.keywordOnlyReason ?? "no"}`);
  for (const [label, opts] of [
    ["hybrid + ranking (default)", {}],
    ["BM25 (keyword, no ranking)", { mode: "keyword", rank: false }],
  ]) {
    await engine.search(queries[0], opts);
    const times = [];
    for (const q of queries) {
      const t0 = performance.now();
      await engine.search(q, { topK: 10, ...opts });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const pct = (p) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
    console.log(`${label}: p50 ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms over ${times.length} queries`);
  }
} finally {
  await engine.close();
}
