// Medium repositories, cold: `opencode-rag index --debug` spawned in each of five code bases of
// 2–9 MB (C++, Python, Go, PHP, Rust; test/bench/medium-corpus.mjs), no index yet, bundled
// model on, spawn to exit; interleaved with the floor, a pure-Python BM25 indexer over 40-line
// windows (../shared/eval/baseline_bm25.py --index-only) on the same tree. Peak RSS is the OS's.
// Per repo: wall, ratio to the floor, chunks, peak RSS and where the pass's time went.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureMediumRepos } from "../medium-corpus.mjs";
import { median, passTimings, spawnTimed } from "../spawn-timed.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = join(here, "..", "..", "..");
const FLOOR_SCRIPT = join(repoRoot, "..", "shared", "eval", "baseline_bm25.py");
const RUNS = Number(process.env.BENCH_MEDIUM_RUNS ?? 1);

const fmt = (n, d = 1) => (n === undefined || n === null ? "" : n.toFixed(d));

export default {
  name: "medium-repo",
  needsCorpus: false,
  async run({ cacheDir, log }) {
    if (!existsSync(FLOOR_SCRIPT)) return { skipped: `skipped: the BM25 floor ${FLOOR_SCRIPT} is not here` };
    const repos = ensureMediumRepos(cacheDir, log);
    const cli = join(repoRoot, "dist", "cli.js");
    const perRepo = [];
    for (const repo of repos) {
      const ours = [];
      const floor = [];
      for (let i = 0; i < RUNS; i++) {
        log(`  medium repo ${repo.name}: first index ${i + 1}/${RUNS}`);
        rmSync(join(repo.dir, ".opencode"), { recursive: true, force: true });
        ours.push(spawnTimed(process.execPath, [cli, "index", "--debug"], repo.dir));
        floor.push(spawnTimed("python3", [FLOOR_SCRIPT, repo.dir, "--index-only"], repo.dir));
      }
      rmSync(join(repo.dir, ".opencode"), { recursive: true, force: true });
      const best = ours.find((r) => r.s === median(ours.map((o) => o.s)));
      const added = best.stderr.match(/"chunksAdded":(\d+)/);
      perRepo.push({
        repo: repo.name,
        language: repo.language,
        s: best.s,
        floorS: median(floor.map((r) => r.s)),
        rssMb: Math.max(...ours.map((r) => r.rssMb)),
        floorRssMb: Math.max(...floor.map((r) => r.rssMb)),
        chunks: added ? Number(added[1]) : null,
        timings: passTimings(best.stderr),
      });
    }
    const sum = (k) => perRepo.reduce((a, r) => a + r[k], 0);
    const steps = [...new Set(perRepo.flatMap((r) => Object.keys(r.timings ?? {})))];
    const table = [
      `| repo | language | chunks | ours s | BM25 floor s | ratio | peak RSS MB | ${steps.join(" | ")} |`,
      `| --- | --- | ---: | ---: | ---: | ---: | ---: |${steps.map(() => " ---: |").join("")}`,
      ...perRepo.map(
        (r) =>
          `| ${r.repo} | ${r.language} | ${r.chunks ?? ""} | ${fmt(r.s, 2)} | ${fmt(r.floorS, 2)} | ${fmt(r.s / r.floorS, 2)} | ${fmt(r.rssMb, 0)} | ${steps.map((k) => fmt(r.timings?.[k], 0)).join(" | ")} |`,
      ),
    ].join("\n");
    return {
      info: { repos: perRepo.map((r) => r.repo).join(", "), runs: RUNS },
      rows: [
        { metric: "sum of cold first-index times: s", value: sum("s"), floor: sum("floorS"), floorNote: "pure-Python BM25 indexer", target: "" },
        { metric: "sum ÷ BM25 floor", value: sum("s") / sum("floorS"), floor: null, target: "<= 2.5x" },
        { metric: "largest peak RSS: MB", value: Math.max(...perRepo.map((r) => r.rssMb)), floor: Math.max(...perRepo.map((r) => r.floorRssMb)), floorNote: "pure-Python BM25 indexer", target: "" },
      ],
      table,
    };
  },
};
