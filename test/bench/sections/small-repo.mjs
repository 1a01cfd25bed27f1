// A small repository's first index, as a user runs it: `opencode-rag index` spawned in a
// ~150-file Python tree with no index yet, spawn to exit, bundled model on. The floor, in the
// same run: a pure-Python BM25 indexer over 40-line windows (../shared/eval/baseline_bm25.py
// --index-only), spawned the same way. Peak RSS is the OS's, not the JS heap: its largest
// process's (ru_maxrss), and all of its processes' at once (a launcher and its child). The
// tree: pallets/click when a semble-dev checkout or mirror is at hand, else the same number of
// files from the Python standard library this machine has.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, spawnTimed as timed } from "../spawn-timed.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = join(here, "..", "..", "..");
const RUNS = 3;
const FLOOR_SCRIPT = join(repoRoot, "..", "shared", "eval", "baseline_bm25.py");

function listPy(dir, out = [], rel = "") {
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && !/^(test|tests|idle_test|__pycache__|site-packages)$/.test(e.name)) listPy(dir, out, r);
    else if (e.isFile() && e.name.endsWith(".py")) out.push(r);
  }
  return out;
}

/** The tree to index, copied into `dest`; returns a one-line description. */
function layOut(dest, cacheDir) {
  const semble = join(cacheDir, "..", "semble-dev", "repos", "click");
  const mirror = process.env.MIRROR_ROOT ? join(process.env.MIRROR_ROOT, "pallets+click", "repo") : null;
  if (existsSync(semble)) {
    cpSync(semble, dest, { recursive: true, filter: (p) => !p.includes("/.opencode") && !p.endsWith("/.git") });
    return "pallets/click (semble-dev checkout)";
  }
  if (mirror && existsSync(mirror)) {
    execFileSync("bash", ["-c", `git --git-dir="${mirror}" archive HEAD | tar -x -C "${dest}"`]);
    return "pallets/click (mirror HEAD)";
  }
  const stdlib = execFileSync("python3", ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], { encoding: "utf8" }).trim();
  const files = ["asyncio", "email", "json", "http", "urllib", "logging", "concurrent", "importlib", "xml"].flatMap((d) => listPy(join(stdlib, d)).map((f) => `${d}/${f}`)).slice(0, 160);
  for (const f of files) {
    mkdirSync(join(dest, f, ".."), { recursive: true });
    cpSync(join(stdlib, f), join(dest, f));
  }
  return `${files.length} files of the Python standard library (${stdlib})`;
}

export default {
  name: "small-repo",
  needsCorpus: false,
  async run({ cacheDir, log }) {
    if (!existsSync(FLOOR_SCRIPT)) return { skipped: `skipped: the BM25 floor ${FLOOR_SCRIPT} is not here` };
    const tree = mkdtempSync(join(tmpdir(), "rag-bench-small-"));
    try {
      const what = layOut(tree, cacheDir);
      const cli = join(repoRoot, "dist", "cli.js");
      const ours = [];
      const floor = [];
      for (let i = 0; i < RUNS; i++) {
        log(`  small repo: first index ${i + 1}/${RUNS}`);
        rmSync(join(tree, ".opencode"), { recursive: true, force: true });
        ours.push(timed(process.execPath, [cli, "index"], tree));
        floor.push(timed("python3", [FLOOR_SCRIPT, tree, "--index-only"], tree));
      }
      const s = median(ours.map((r) => r.s));
      const f = median(floor.map((r) => r.s));
      const rss = Math.max(...ours.map((r) => r.rssMb));
      const floorRss = Math.max(...floor.map((r) => r.rssMb));
      const treeRss = Math.max(...ours.map((r) => r.treeRssMb ?? 0)) || null;
      return {
        info: { tree: what, runs: RUNS },
        rows: [
          { metric: "first index, spawn to exit: s (median)", value: s, floor: f, floorNote: "pure-Python BM25 indexer", target: "<= 1.0 s" },
          { metric: "first index ÷ BM25 floor", value: s / f, floor: null, target: "<= 2.5x" },
          { metric: "first index: peak RSS MB (its largest process)", value: rss, floor: floorRss, floorNote: "pure-Python BM25 indexer", target: "<= 200 MB" },
          { metric: "first index: peak RSS MB (all its processes at once)", value: treeRss, floor: null, target: "" },
        ],
      };
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  },
};
