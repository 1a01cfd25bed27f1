// Does a hit's preview show the code it was found for? For every query of an eval suite, the
// first of the top 10 hits that covers a target by the strict chunk rule (spanCovers: at least
// half of the target's lines, up to 20), and whether the lines a host shows of that hit do too:
// the agent's tool (24 lines) and the CLI (3), each as the chunk's head and as the window
// `previewWindow` picks. "covers" applies the strict rule to the shown lines; "first line" asks
// that they hold the target's first line inside the chunk (its declaration, when the chunk has it).
//
//   node test/eval/preview-shows.mjs [--suite FILE] [--losses 24|3]
//
// FILE defaults to the dev suite; `--losses N` prints each hit whose N-line head covers its
// target and whose window does not, with the window marked. Indexes a set that has none.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openEngine } from "../../core/engine.js";
import { spanCovers } from "../../core/eval/metrics.js";
import { parseQueryFile } from "../../core/eval/queries.js";
import type { RelevantSpan } from "../../core/eval/types.js";
import { silentLogger } from "../../core/logging/index.js";
import { contentLines, previewWindow, type LineWindow } from "../../core/retrieval/preview-window.js";
import type { ChunkRecord } from "../../core/types.js";

const SIZES = [24, 3] as const;
const argAfter = (flag: string): string | undefined => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const suiteFile = resolve(argAfter("--suite") ?? `${repoRoot}/test/eval/dev-suite.json`);
const showLosses = Number(argAfter("--losses") ?? 0);
const suite = JSON.parse(readFileSync(suiteFile, "utf8")) as { sets: Array<{ name: string; root: string; queries: string; repo?: string }> };

/** Per set name: hits counted, and per "size way measure" how many of them were shown. */
const tallies = new Map<string, { hits: number; moved: number; shown: Map<string, number> }>();

function printLoss(query: string, c: ChunkRecord, lines: string[], target: RelevantSpan, w: LineWindow): void {
  console.log(`--- ${query}\n    target ${target.startLine}-${target.endLine}, chunk ${c.startLine}-${c.endLine}`);
  lines.forEach((l, i) => console.log(`${String(c.startLine + i).padStart(5)}${i >= w.start && i < w.end ? "|" : " "} ${l.slice(0, 110)}`));
}

for (const set of suite.sets) {
  const base = dirname(suiteFile);
  const queries = parseQueryFile(readFileSync(resolve(base, set.queries), "utf8")).filter((q) => !set.repo || q.repo === set.repo);
  const engine = await openEngine({ root: resolve(base, set.root), logger: silentLogger });
  let t = tallies.get(set.name);
  if (!t) tallies.set(set.name, (t = { hits: 0, moved: 0, shown: new Map() }));
  try {
    await engine.index(); // up to date: a walk; else the set's first index
    for (const q of queries) {
      const results = await engine.search(q.query, { topK: 10 });
      const hit = results.map((r) => ({ c: r.chunk, target: q.relevant.find((s) => spanCovers(r.chunk, s)) })).find((h) => h.target);
      if (!hit?.target) continue;
      const { c, target } = hit;
      t.hits++;
      const lines = contentLines(c.content);
      const first = Math.max(c.startLine, target.startLine ?? c.startLine);
      for (const size of SIZES) {
        const ways = { head: { start: 0, end: Math.min(lines.length, size) }, window: previewWindow(lines, q.query, size) };
        if (size === 24 && ways.window.start !== 0) t.moved++;
        const span = (w: LineWindow) => ({ filePath: c.filePath, startLine: c.startLine + w.start, endLine: c.startLine + w.end - 1 });
        if (size === showLosses && spanCovers(span(ways.head), target) && !spanCovers(span(ways.window), target)) printLoss(q.query, c, lines, target, ways.window);
        for (const [way, w] of Object.entries(ways)) {
          const s = span(w);
          const count = (measure: string, yes: boolean) => t.shown.set(`${size} ${way} ${measure}`, (t.shown.get(`${size} ${way} ${measure}`) ?? 0) + (yes ? 1 : 0));
          count("covers", spanCovers(s, target));
          count("first line", s.startLine <= first && first <= s.endLine);
        }
      }
    }
  } finally {
    await engine.close();
  }
}

for (const [name, t] of tallies) {
  console.log(`\n${name}: ${t.hits} queries with a strict hit in the first 10; the 24-line window moved for ${t.moved}\n`);
  console.log("| lines shown | measure | head | window |\n| --- | --- | ---: | ---: |");
  const pct = (v: number) => `${v} (${((100 * v) / t.hits).toFixed(1)}%)`;
  for (const size of SIZES) {
    for (const measure of ["covers", "first line"]) {
      console.log(`| ${size} | ${measure} | ${pct(t.shown.get(`${size} head ${measure}`) ?? 0)} | ${pct(t.shown.get(`${size} window ${measure}`) ?? 0)} |`);
    }
  }
}
