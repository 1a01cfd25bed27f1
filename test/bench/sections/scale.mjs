// Scale with the bundled model: the 9k-file bench tree and a generated tree of many small files
// (100,000 by default; `--files=N`), each indexed by a process of its own (pass-child.mjs) so
// peak RSS and CPU time are the pass's alone. Per tree: the full first pass, a no-op pass in a
// fresh process (what `opencode-rag index` costs when nothing changed), and the disk the index
// takes beside the table's own size; then searches over that index: a one-off `opencode-rag
// query` (a fresh CLI process each time) and a process that serves searches (serve-child.mjs);
// for the generated tree, background passes over edited files in such a process (edit-child.mjs).
// Floors in the same run: read + hash every file once, stat every file, a bare `node` start.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateTree } from "../generate-tree.mjs";
import { p50 } from "../stats.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));

/** The model folder the package ships (models/opencode-rag-code-vN), named in the results. */
function bundledModelDir() {
  return readdirSync(join(here, "..", "..", "..", "models")).find((d) => d.startsWith("opencode-rag-code-")) ?? "none";
}
const child = join(here, "..", "pass-child.mjs");
const serveChild = join(here, "..", "serve-child.mjs");
const editChild = join(here, "..", "edit-child.mjs");
const cli = join(here, "..", "..", "..", "dist", "cli.js");
const reportRss = pathToFileURL(join(here, "..", "report-rss.mjs")).href;
const QUERIES = ["retry a failed request", "parse the token stream", "where is the invoice total computed", "cache eviction", "handle a login session", "sortByScore", "export the metrics report"];
const CLI_RUNS = 11;
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

/**
 * One-off `opencode-rag query` over the index in `stateDir`, each a fresh CLI process in `root`
 * (p50 of CLI_RUNS, a different query each time), beside a bare `node` start; peak RSS from one
 * more run that reports its own as it exits (report-rss.mjs).
 */
function oneOffQueries(root, stateDir) {
  const config = `${stateDir}-cli.json`;
  writeFileSync(config, JSON.stringify({ vectorStore: { path: stateDir }, autoIndex: { enabled: false }, logging: { logFilePath: "" } }));
  const env = { ...process.env, LANCEDB_LOG: "error" };
  const run = (nodeArgs) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, nodeArgs, { cwd: root, env, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
    if (r.status !== 0) throw new Error(`node ${nodeArgs.join(" ")} exited with ${r.status}: ${r.stderr.trim()}`);
    return { ms: performance.now() - t, stderr: r.stderr };
  };
  const queryArgs = (i) => [cli, "--config", config, "query", QUERIES[i % QUERIES.length], "--json", "-k", "5"];
  try {
    const query = [];
    const bare = [];
    for (let i = 0; i < CLI_RUNS; i++) {
      bare.push(run(["-e", ""]).ms);
      query.push(run(queryArgs(i)).ms);
    }
    const reported = /maxrss (\d+)/.exec(run(["--import", reportRss, ...queryArgs(0)]).stderr);
    return { p50Ms: p50(query), bareMs: p50(bare), peakRssMb: reported ? Number(reported[1]) / 1024 : null };
  } finally {
    rmSync(config, { force: true });
  }
}

/** Files a background pass finds edited: past the 2,000 keyword changes a delta file holds, so the pass writes a snapshot. */
const EDITED_FILES = 1200;

/**
 * Background passes in a process serving searches (edit-child.mjs), as the plugin's indexer
 * runs in OpenCode's: one file edited (the watcher's pass over that path), another in the same
 * process (a watcher's later passes, after one of its own committed), a third passed by its
 * folder's entries (what the folder watch asks for after a save), then EDITED_FILES files (a
 * full walk whose commit writes a keyword snapshot). Edits the tree.
 */
function backgroundEdits(root, stateDir, paths) {
  const run = (edit, watchPath, then, thenFolder) =>
    JSON.parse(
      execFileSync(process.execPath, [editChild, JSON.stringify({ root, stateDir, queries: QUERIES.slice(0, 3), edit, watchPath, then, thenFolder })], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
        .trim()
        .split("\n")
        .pop(),
    );
  const step = Math.max(1, Math.floor(paths.length / EDITED_FILES));
  const many = paths.filter((_, i) => i % step === 0).slice(0, EDITED_FILES);
  const one = run([paths[1] ?? paths[0]], true, [paths[2] ?? paths[0]], [paths[3] ?? paths[0]]);
  return { one, next: one.then, folder: one.thenFolder, many: run(many, false) };
}

/** A process serving searches over the index in `stateDir` (serve-child.mjs). */
function servingProcess(root, stateDir) {
  const out = execFileSync(process.execPath, [serveChild, JSON.stringify({ root, stateDir, queries: QUERIES })], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").pop());
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

/**
 * Full pass + fresh-process no-op pass of `root`, with the model, then searches over the index
 * it made; rows labelled `label`. `edits`: then background passes over edited files (which
 * changes the tree: not for the cached corpus).
 */
export function measureTree(root, label, log, targets = {}, { edits = false } = {}) {
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
    log(`  ${label}: one-off queries and a serving process…`);
    const oneOff = oneOffQueries(root, stateDir);
    const serving = servingProcess(root, stateDir);
    if (edits) log(`  ${label}: background passes over edited files…`);
    const edited = edits ? backgroundEdits(root, stateDir, paths) : null;
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
      { metric: `${label}: one-off \`opencode-rag query\`, fresh process: ms p50`, value: oneOff.p50Ms, floor: oneOff.bareMs, floorNote: "bare node start", target: targets.query ?? "" },
      { metric: `${label}: one-off \`opencode-rag query\`: peak RSS MB`, value: oneOff.peakRssMb, floor: null, target: "" },
      { metric: `${label}: a process serving searches: peak RSS MB`, value: serving.peakRssMb, floor: null, target: targets.servingRss ?? "" },
      { metric: `${label}: a process serving searches: warm query ms p50`, value: serving.p50Ms, floor: null, target: "" },
      ...(edited
        ? [
            { metric: `${label}: background pass, one file edited (watch path): ms`, value: edited.one.wallMs, floor: null, target: "" },
            { metric: `${label}: background pass, one file edited: its host's longest event-loop wait ms`, value: edited.one.longestStallMs, floor: null, target: "" },
            { metric: `${label}: the same host's next pass, another file edited, passed by its name: ms`, value: edited.next.wallMs, floor: null, target: "" },
            { metric: `${label}: the same host's pass over a saved file's folder, a later save (what the folder watch asks for): ms`, value: edited.folder.wallMs, floor: null, target: "" },
            { metric: `${label}: background pass, ${edited.many.filesIndexed} files edited (a keyword snapshot): ms`, value: edited.many.wallMs, floor: null, target: "" },
            { metric: `${label}: background pass, ${edited.many.filesIndexed} files edited: its host's longest event-loop wait ms`, value: edited.many.longestStallMs, floor: null, target: "" },
          ]
        : []),
    ];
    const info = {
      [`${label} files`]: paths.length,
      [`${label} MB`]: +(floor.bytes / 2 ** 20).toFixed(1),
      [`${label} chunks`]: full.chunks,
      [`${label} full pass steps (ms)`]: JSON.stringify(full.timings),
      [`${label} no-op steps (ms)`]: JSON.stringify(noop.timings),
      ...(edited
        ? {
            [`${label} the host's next one-file pass, steps (ms)`]: JSON.stringify(edited.next.timings),
            [`${label} background pass over edited files, steps (ms)`]: JSON.stringify(edited.many.timings),
          }
        : {}),
    };
    return { rows, info };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** What a generated tree of that many files should measure on a 2-core laptop. */
const GENERATED_TARGETS = {
  30_000: { rss: "<= 600 MB", noop: "<= 1000 ms", disk: "<= 1.3x the table" },
  100_000: { seconds: "<= 60 s", rss: "<= 800 MB", disk: "<= 1.3x the table", query: "<= 500 ms", servingRss: "<= 300 MB" },
};

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
    const bench = measureTree(corpusRoot, "bench tree", log, { mbs: ">= 2 MB/s", rss: "<= 400 MB" });
    const genRoot = mkdtempSync(join(tmpdir(), "rag-bench-gen-"));
    try {
      const t = performance.now();
      const bytes = generateTree(genRoot, files);
      log(`  generated ${files} files (${(bytes / 2 ** 20).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const label = `${files / 1000}k files`;
      const gen = measureTree(genRoot, label, log, GENERATED_TARGETS[files] ?? {}, { edits: true });
      return { info: { model: `bundled (${bundledModelDir()})`, ...bench.info, ...gen.info }, rows: [...bench.rows, ...gen.rows] };
    } finally {
      rmSync(genRoot, { recursive: true, force: true });
    }
  },
};
