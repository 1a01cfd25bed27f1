// A fresh process embedding N real chunks with the default local provider (the bundled model):
// start-up, embedding time, chunks/s, CPU time and the process's peak resident memory (VmHWM from
// /proc, native memory included, not just the JS heap). Chunks are 40-line pieces of this
// repository's own source and docs.
//   node test/bench/embed-cold.mjs [--count 2000] [--library dist/library.js]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { peakRssMb } from "./peak-rss.mjs";

const started = performance.now();
const repoRoot = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const count = Number(arg("count", "2000"));
const library = resolve(arg("library", join(repoRoot, "dist", "library.js")));

function* sourceFiles(dir) {
  for (const name of readdirSync(dir).sort()) {
    if (name === "node_modules" || name.startsWith(".") || name === "dist") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mjs|js|md|py)$/.test(name)) yield path;
  }
}

function realChunks(n) {
  const out = [];
  for (;;) {
    for (const dir of ["core", "cli", "mcp", "opencode-plugin", "tui", "test", "docs", "models/scripts"]) {
      for (const file of sourceFiles(join(repoRoot, dir))) {
        const lines = readFileSync(file, "utf8").split("\n");
        for (let i = 0; i < lines.length; i += 40) {
          out.push(lines.slice(i, i + 40).join("\n"));
          if (out.length >= n) return out;
        }
      }
    }
  }
}

const texts = realChunks(count);
const { createEmbeddingProvider, DEFAULT_CONFIG } = await import(pathToFileURL(library).href);
const { provider, reason } = await createEmbeddingProvider(DEFAULT_CONFIG, { root: repoRoot });
if (!provider) throw new Error(`no provider: ${reason}`);
const t0 = performance.now();
await provider.embed(texts.slice(0, 1), "document");
const firstMs = performance.now() - t0;
const t1 = performance.now();
const vectors = await provider.embed(texts, "document");
const embedMs = performance.now() - t1;
await provider.close?.();
console.log(
  JSON.stringify({
    library,
    chunks: vectors.length,
    chars: texts.reduce((s, t) => s + t.length, 0),
    firstEmbedMs: Math.round(firstMs),
    embedMs: Math.round(embedMs),
    chunksPerSecond: Math.round(vectors.length / (embedMs / 1000)),
    totalMs: Math.round(performance.now() - started),
    // user + system CPU of every thread: steadier than wall time on a busy machine
    cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
    peakRssMb: Math.round(peakRssMb()),
  }),
);
