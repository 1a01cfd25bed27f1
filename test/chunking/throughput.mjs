// Chunking throughput on real source files (not a test: numbers depend on the machine).
// Usage: node test/chunking/throughput.mjs [DIR] [EXT]   (default: the .ts sources under node_modules)
//        CHUNKING='{"packChars":1500}' node test/chunking/throughput.mjs …   (options over the defaults)
// Bundles core/chunking with esbuild, reads every matching file once, then chunks them all
// twice: the first pass loads grammars (cold), the second is the warm number to compare
// with the 2 MB/s target.
import { build } from "esbuild";
import { readFileSync, readdirSync, statSync, mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const dir = process.argv[2] ?? join(repo, "node_modules");
const ext = process.argv[3] ?? ".ts";
const out = join(repo, "test/.cache/chunking-bench.mjs");
mkdirSync(dirname(out), { recursive: true });
await build({
  stdin: {
    contents: `export { chunkFile } from "./core/chunking/index.ts"; export { DEFAULT_CONFIG } from "./core/config/defaults.ts";`,
    resolveDir: repo,
    loader: "ts",
  },
  outfile: out,
  bundle: true,
  platform: "node",
  format: "esm",
  external: ["web-tree-sitter", "unpdf"],
  logLevel: "warning",
});
const { chunkFile, DEFAULT_CONFIG } = await import(pathToFileURL(out).href);
const options = { ...DEFAULT_CONFIG.chunking, ...JSON.parse(process.env.CHUNKING ?? "{}") };

const files = [];
const walk = (d) => {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) walk(p);
    else if (name.endsWith(ext) && !name.endsWith(".d.ts") && st.size < 1_048_576) files.push(p);
  }
};
walk(dir);
const texts = files.map((f) => [relative(dir, f), readFileSync(f, "utf8")]);
const bytes = texts.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);

for (const pass of ["cold", "warm"]) {
  let chunks = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (const [path, text] of texts) chunks += (await chunkFile(path, text, options)).length;
  const s = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // CPU seconds of this process: on a busy machine wall time says more about the neighbours.
  const cpuS = (cpu.user + cpu.system) / 1e6;
  console.log(
    `${pass}: ${texts.length} files, ${(bytes / 1e6).toFixed(1)} MB, ${chunks} chunks in ${s.toFixed(2)} s wall = ` +
      `${(bytes / 1e6 / s).toFixed(2)} MB/s, ${Math.round(chunks / s)} chunks/s; ` +
      `${cpuS.toFixed(2)} s CPU = ${(bytes / 1e6 / cpuS).toFixed(2)} MB per CPU-second`,
  );
}
