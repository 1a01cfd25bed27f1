// Scale with the bundled model: the 9k-file bench tree and a generated tree of many small files
// (100,000 by default; `--files=N`), each indexed by a process of its own (pass-child.mjs) so
// peak RSS and CPU time are the pass's alone. Per tree: the full first pass, a no-op pass in a
// fresh process (what `opencode-rag index` costs when nothing changed), and the disk the index
// takes beside the table's own size. Floors in the same run: read + hash every file once, and
// stat every file.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateTree } from "../generate-tree.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));

/** The model folder the package ships (models/opencode-rag-code-vN), named in the results. */
function bundledModelDir() {
  return readdirSync(join(here, "..", "..", "..", "models")).find((d) => d.startsWith("opencode-rag-code-")) ?? "none";
}
const child = join(here, "..", "pass-child.mjs");
/** The allocator settings the CLI starts its pass commands with (cli/relaunch.ts). */
const { PASS_MALLOC_ENV } = await import(pathToFileURL(join(here, "..", "..", "..", "dist", "library.js")).href);

/** Runs one pass in a fresh process, as the CLI runs it; returns its report plus the spawn-to-exit time. */
export function passInChild(args) {
  const t = performance.now();
  const out = execFileSync(process.execPath, [child, JSON.stringify(args)], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...PASS_MALLOC_ENV },
  });
  const report = JSON.parse(out.trim().split("\n").pop());
  return { ...report, processMs: performance.now() - t };
}

function listFiles(root, rel = "", out = []) {
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) listFiles(root, r, out);
    else if (e.isFile()) out.push(r);
  }
  return out;
}

function diskBytes(dir) {
  return Number(execFileSync("du", ["-sb", dir], { encoding: "utf8" }).split("\t")[0]);
}

function floors(root, paths) {
  let t = performance.now();
  let bytes = 0;
  for (const p of paths) {
    const b = readFileSync(join(root, p));
    bytes += b.length;
    createHash("sha1").update(b).digest();
  }
  const readMs = performance.now() - t;
  t = performance.now();
  for (const p of paths) statSync(join(root, p));
  return { readMs, bytes, statMs: performance.now() - t };
}

/** Full pass + fresh-process no-op pass of `root`, with the model; rows labelled `label`. */
export function measureTree(root, label, log, targets = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), "rag-bench-scale-state-"));
  try {
    const paths = listFiles(root);
    const floor = floors(root, paths);
    log(`  ${label}: full pass of ${paths.length} files…`);
    const full = passInChild({ root, stateDir, embed: true, force: true });
    log(`  ${label}: ${(full.wallMs / 1000).toFixed(1)} s, ${full.chunks} chunks; no-op pass…`);
    const noop = passInChild({ root, stateDir, embed: true });
    if (noop.summary.bytesRead !== 0) throw new Error(`a no-op pass read ${noop.summary.bytesRead} bytes`);
    const disk = diskBytes(stateDir);
    const mb = full.summary.bytesRead / 2 ** 20;
    const rows = [
      { metric: `${label}: full index: seconds`, value: full.wallMs / 1000, floor: floor.readMs / 1000, floorNote: "read+hash every file", target: targets.seconds ?? "" },
      { metric: `${label}: full index: MB/s`, value: mb / (full.wallMs / 1000), floor: floor.bytes / 2 ** 20 / (floor.readMs / 1000), target: targets.mbs ?? "" },
      { metric: `${label}: full index: CPU seconds`, value: full.cpuSecs, floor: null, target: "" },
      { metric: `${label}: full index: peak RSS MB`, value: full.peakRssMb, floor: null, target: targets.rss ?? "" },
      { metric: `${label}: no-op re-index, fresh process: ms`, value: noop.processMs, floor: floor.statMs, floorNote: "stat every file", target: targets.noop ?? "" },
      { metric: `${label}: no-op re-index, the pass alone: ms`, value: noop.summary.durationMs, floor: floor.statMs, floorNote: "stat every file", target: "" },
      { metric: `${label}: no-op re-index: peak RSS MB`, value: noop.peakRssMb, floor: null, target: "" },
      { metric: `${label}: index on disk MB`, value: disk / 2 ** 20, floor: full.tableBytes === null ? null : full.tableBytes / 2 ** 20, floorNote: "the table's data", target: targets.disk ?? "" },
    ];
    const info = {
      [`${label} files`]: paths.length,
      [`${label} MB`]: +(floor.bytes / 2 ** 20).toFixed(1),
      [`${label} chunks`]: full.chunks,
      [`${label} full pass steps (ms)`]: JSON.stringify(full.timings),
      [`${label} no-op steps (ms)`]: JSON.stringify(noop.timings),
    };
    return { rows, info };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function filesArg() {
  const a = process.argv.find((x) => x.startsWith("--files="));
  const n = a ? Number(a.slice("--files=".length)) : 100_000;
  if (!Number.isInteger(n) || n < 1) throw new Error(`--files must be a whole number of files, found ${a}`);
  return n;
}

export default {
  name: "scale",
  async run({ corpusRoot, log }) {
    const files = filesArg();
    const bench = measureTree(corpusRoot, "bench tree", log, { mbs: ">= 2 MB/s", rss: "<= 500 MB" });
    const genRoot = mkdtempSync(join(tmpdir(), "rag-bench-gen-"));
    try {
      const t = performance.now();
      const bytes = generateTree(genRoot, files);
      log(`  generated ${files} files (${(bytes / 2 ** 20).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const label = `${files / 1000}k files`;
      const gen = measureTree(genRoot, label, log, files === 100_000 ? { seconds: "<= 120 s", noop: "<= 3000 ms", rss: "<= 800 MB", disk: "<= 1.5x the table" } : {});
      return { info: { model: `bundled (${bundledModelDir()})`, ...bench.info, ...gen.info }, rows: [...bench.rows, ...gen.rows] };
    } finally {
      rmSync(genRoot, { recursive: true, force: true });
    }
  },
};
