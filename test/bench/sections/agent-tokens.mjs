// Tokens to the first relevant code (`npm run bench -- --only=agent-tokens`): a scripted
// comparison, no model, on the semble-dev benchmark (21 repos, 421 queries), counted with the
// product's tokenizer (cl100k). grep + read is what OpenCode's own tools would show an agent
// that greps the query's content words and reads the matching files, most matches first;
// opencode-rag is the search_semantic answer, plus a read of the best relevant hit's file when
// the answer does not already hold the code. The rules: test/bench/agent-tokens-method.ts;
// docs/benchmarks.md states them. Needs the semble-dev layout (test/.cache/semble-dev); without
// it the section prints a one-line skip reason.
import { join } from "node:path";
import { bundleAndImport } from "../../eval/bundle-and-import.mjs";

export const BUDGET = 20_000;

const args = process.argv.slice(2);
const opt = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

function quantile(xs, q) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}
const within = (xs) => (xs.length ? xs.filter((x) => x <= BUDGET).length / xs.length : 0);
const tok = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "not found");
const pct = (x) => `${(100 * x).toFixed(1)}%`;

function summary(rows) {
  const g = rows.map((r) => r.grep);
  const o = rows.map((r) => r.ours);
  const a = rows.map((r) => r.oursRead);
  return {
    n: rows.length,
    grepMedian: quantile(g, 0.5),
    grepP90: quantile(g, 0.9),
    grepWithin: within(g),
    oursMedian: quantile(o, 0.5),
    oursP90: quantile(o, 0.9),
    oursWithin: within(o),
    oursReadMedian: quantile(a, 0.5),
    oursReadWithin: within(a),
    ratio: quantile(o, 0.5) / quantile(g, 0.5),
    inOutput: rows.filter((r) => r.how === "output").length,
    viaRead: rows.filter((r) => r.how === "read").length,
    viaGrep: rows.filter((r) => r.how === "grep").length,
    notFound: rows.filter((r) => r.how === "none").length,
    grepNotFound: g.filter((x) => !Number.isFinite(x)).length,
  };
}

function table(rows) {
  const repos = [...new Set(rows.map((r) => r.repo))];
  const lines = [
    `| repo | queries | grep+read median | p90 | ≤ 20k | ours median | p90 | ≤ 20k | ours / grep+read (median) | ours + always read: median | ≤ 20k |`,
    `| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
  ];
  const line = (label, s) =>
    `| ${label} | ${s.n} | ${tok(s.grepMedian)} | ${tok(s.grepP90)} | ${pct(s.grepWithin)} | ${tok(s.oursMedian)} | ${tok(s.oursP90)} | ${pct(s.oursWithin)} | ${Number.isFinite(s.ratio) ? s.ratio.toFixed(2) : "–"} | ${tok(s.oursReadMedian)} | ${pct(s.oursReadWithin)} |`;
  for (const repo of repos) lines.push(line(repo, summary(rows.filter((r) => r.repo === repo))));
  lines.push(line("**all (pooled)**", summary(rows)));
  return lines.join("\n");
}

export default {
  name: "agent-tokens",
  needsCorpus: false,
  async run({ log }) {
    const repoRoot = new URL("../../..", import.meta.url).pathname;
    const kit = opt("kit") ?? join(repoRoot, "..", "shared", "eval", "semble-dev");
    const out = opt("out") ?? join(repoRoot, "test", ".cache", "semble-dev");
    const mod = await bundleAndImport("test/bench/agent-tokens-run.ts", "agent-tokens-run.mjs");
    const missing = mod.layoutMissing(kit, out);
    if (missing) return { skipped: `skipped: ${missing}`, rows: [] };
    const repos = opt("repos")?.split(",");
    const rows = await mod.measureAgentTokens({ kit, out, repos, log });
    const s = summary(rows);
    const meets = s.ratio <= 0.6 && s.oursWithin >= s.grepWithin;
    return {
      info: {
        queries: s.n,
        "answer in the search output": s.inOutput,
        "search + one read": s.viaRead,
        "search, then grep + read": s.viaGrep,
        "not found by either path": s.notFound,
        "grep + read never reaches a target": s.grepNotFound,
        "budget": "20,000 cl100k tokens",
      },
      table: table(rows),
      rows: [
        { metric: "median tokens to first relevant code, grep + read", value: s.grepMedian, floor: null, target: "" },
        { metric: "median tokens to first relevant code, opencode-rag", value: s.oursMedian, floor: s.grepMedian, floorNote: "grep + read", target: "≤ 60% of grep + read" },
        { metric: "ours / grep + read (median)", value: s.ratio, floor: null, target: `≤ 0.60: ${s.ratio <= 0.6 ? "met" : "missed"}` },
        { metric: "share within 20k tokens, grep + read", value: 100 * s.grepWithin, floor: null, target: "" },
        { metric: "share within 20k tokens, opencode-rag", value: 100 * s.oursWithin, floor: 100 * s.grepWithin, floorNote: "grep + read", target: `≥ grep + read: ${s.oursWithin >= s.grepWithin ? "met" : "missed"}` },
        { metric: "done-when (both)", value: meets ? 1 : 0, floor: null, target: meets ? "met" : "missed" },
      ],
      perQuery: rows.map((r) => ({ ...r, grep: Number.isFinite(r.grep) ? r.grep : null, ours: Number.isFinite(r.ours) ? r.ours : null, oursRead: Number.isFinite(r.oursRead) ? r.oursRead : null })),
    };
  },
};
