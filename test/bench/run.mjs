// `npm run bench`: fetches a real source tree (cached under test/.cache/bench), runs every
// section and prints one table per section. A section is a module in sections/ exporting
// { name, run(ctx) -> { info, rows: [{ metric, value, floor, floorNote?, target }] } }; add one
// by listing it below. Results are also written as JSON beside the cache. A section may also
// return `table` (markdown printed after its rows), `skipped` (a one-line reason printed instead),
// and set `needsCorpus: false` when it does not use the fetched tree.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureCorpus } from "./corpus.mjs";
import indexing, { indexingWithModel } from "./sections/indexing.mjs";
import remote from "./sections/remote.mjs";
import tokens from "./sections/tokens.mjs";
import agentTokens from "./sections/agent-tokens.mjs";
import mcp from "./sections/mcp.mjs";
import cliQuery from "./sections/cli-query.mjs";
import sharedS3 from "./sections/shared-s3.mjs";
import scale from "./sections/scale.mjs";
import neighbour from "./sections/neighbour.mjs";
import smallRepo from "./sections/small-repo.mjs";
import mediumRepo from "./sections/medium-repo.mjs";
import pluginHost from "./sections/plugin-host.mjs";

const SECTIONS = [indexing, indexingWithModel, smallRepo, mediumRepo, scale, pluginHost, neighbour, remote, tokens, agentTokens, mcp, cliQuery, sharedS3];

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = join(here, "..", "..");
const cacheDir = join(repoRoot, "test", ".cache", "bench");
const args = process.argv.slice(2);
const embed = args.includes("--embed");
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const log = (m) => process.stderr.write(m + "\n");

function fmt(n) {
  if (n === null || n === undefined) return "";
  if (n >= 100) return Math.round(n).toLocaleString("en-US");
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

async function main() {
  if (!existsSync(join(repoRoot, "dist", "library.js"))) {
    log("building dist/ first…");
    execFileSync(process.execPath, [join(repoRoot, "esbuild.config.mjs")], { cwd: repoRoot, stdio: "inherit" });
  }
  process.env.LANCEDB_LOG ??= "error";
  mkdirSync(cacheDir, { recursive: true });
  const selected = SECTIONS.filter((s) => !only || s.name === only);
  const corpusRoot = selected.some((s) => s.needsCorpus !== false) ? ensureCorpus(cacheDir, log) : null;
  const lib = await import(join(repoRoot, "dist", "library.js"));
  const load = loadavg()[0].toFixed(1);
  const machine = `${availableParallelism()} cores (${cpus()[0]?.model ?? "?"}), ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.versions.node}, load average ${load} at start`;
  const results = { date: new Date().toISOString(), machine, sections: {} };
  console.log(`machine: ${machine}`);
  for (const section of selected) {
    log(`section ${section.name}…`);
    const r = await section.run({ lib, corpusRoot, cacheDir, log, embed });
    results.sections[section.name] = r;
    console.log(`\n## ${section.name}\n`);
    if (r.skipped) {
      console.log(r.skipped);
      continue;
    }
    if (r.info) console.log(Object.entries(r.info).map(([k, v]) => `${k}: ${v}`).join("; ") + "\n");
    console.log("| metric | measured | floor (same run) | target |");
    console.log("| --- | ---: | ---: | --- |");
    for (const row of r.rows) {
      const floor = row.floor === null || row.floor === undefined ? "" : `${fmt(row.floor)}${row.floorNote ? ` (${row.floorNote})` : ""}`;
      console.log(`| ${row.metric} | ${fmt(row.value)} | ${floor} | ${row.target ?? ""} |`);
    }
    if (r.table) console.log(`\n${r.table}`);
  }
  const out = join(cacheDir, `results-${results.date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(out, JSON.stringify(results, null, 2));
  log(`\nresults written to ${out}`);
}

main().catch((err) => {
  console.error(`bench failed: ${err.message}`);
  process.exit(1);
});
