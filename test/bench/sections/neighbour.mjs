// Is the indexer a good neighbour? A foreground probe (this process: a 10 ms timer and a small
// fixed piece of CPU work, over and over, as an editor's event loop would) measures how late
// its timers fire and how long its work takes, first with nothing else running, then while a
// full pass with the bundled model runs in another process as a foreground pass (`opencode-rag
// index`: every core, normal priority), then as a background one (the plugin, `index --watch`:
// indexing.maxCpuShare of the cores, lowest priority). The workspace is the corpus's three.js
// sources (~760 files, 4.5 MB: big enough for chunking workers).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const child = join(here, "..", "pass-child.mjs");
const BASELINE_MS = 4000;
const TIMER_MS = 10;
const WORK = Buffer.alloc(512 * 1024, 7);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : null;
};

/** Runs the probe until `done()` is true; returns timer lateness and work times (ms). */
async function probe(done) {
  const late = [];
  const work = [];
  while (!done()) {
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, TIMER_MS));
    late.push(performance.now() - t0 - TIMER_MS);
    const w0 = performance.now();
    for (let i = 0; i < 4; i++) createHash("sha256").update(WORK).digest();
    work.push(performance.now() - w0);
  }
  return { late, work };
}

function passWhileProbing(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, JSON.stringify(args)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    let exited = false;
    p.stdout.on("data", (d) => (out += d));
    p.on("error", reject);
    const probing = probe(() => exited);
    p.on("exit", async (code) => {
      exited = true;
      const measured = await probing;
      if (code !== 0) return reject(new Error(`the indexing process exited with ${code}`));
      resolve({ ...measured, report: JSON.parse(out.trim().split("\n").pop()) });
    });
  });
}

export default {
  name: "neighbour",
  async run({ corpusRoot, log }) {
    const root = join(corpusRoot, "three", "src");
    const start = performance.now();
    log("  probe alone…");
    const alone = await probe(() => performance.now() - start > BASELINE_MS);
    const runs = {};
    for (const [name, background] of [["foreground pass", false], ["background pass", true]]) {
      const stateDir = mkdtempSync(join(tmpdir(), "rag-bench-neighbour-"));
      try {
        log(`  probe during a ${name}…`);
        runs[name] = await passWhileProbing({ root, stateDir, embed: true, force: true, background });
      } finally {
        rmSync(stateDir, { recursive: true, force: true });
      }
    }
    const fg = runs["foreground pass"];
    const bg = runs["background pass"];
    const row = (metric, f, floorOf) => [
      { metric: `${metric}, during a foreground pass`, value: f(fg), floor: floorOf(alone), floorNote: "probe alone", target: "" },
      { metric: `${metric}, during a background pass`, value: f(bg), floor: floorOf(alone), floorNote: "probe alone", target: "" },
    ];
    return {
      info: {
        workspace: `three.js sources, ${fg.report.chunks} chunks, bundled model`,
        probe: `a ${TIMER_MS} ms timer, then 4 x sha256 of 512 KB, repeated`,
        "background share": "indexing.maxCpuShare default (0.5)",
      },
      rows: [
        ...row("probe timer lateness p50: ms", (r) => pct(r.late, 50), (a) => pct(a.late, 50)),
        ...row("probe timer lateness p95: ms", (r) => pct(r.late, 95), (a) => pct(a.late, 95)),
        ...row("probe work p50: ms", (r) => pct(r.work, 50), (a) => pct(a.work, 50)),
        ...row("probe work p95: ms", (r) => pct(r.work, 95), (a) => pct(a.work, 95)),
        { metric: "indexing pass, foreground: seconds", value: fg.report.wallMs / 1000, floor: null, target: "" },
        { metric: "indexing pass, background: seconds", value: bg.report.wallMs / 1000, floor: null, target: "" },
        { metric: "indexing pass, foreground: CPU seconds", value: fg.report.cpuSecs, floor: null, target: "" },
        { metric: "indexing pass, background: CPU seconds", value: bg.report.cpuSecs, floor: null, target: "" },
        { metric: "indexing pass, foreground: cores busy (CPU s / s)", value: fg.report.cpuSecs / (fg.report.wallMs / 1000), floor: null, target: "" },
        { metric: "indexing pass, background: cores busy (CPU s / s)", value: bg.report.cpuSecs / (bg.report.wallMs / 1000), floor: null, target: "<= maxCpuShare x cores" },
      ],
    };
  },
};
