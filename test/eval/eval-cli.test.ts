// `opencode-rag eval` end to end through the built dist/cli.js on a copy of the fixture
// repository, with the real chunkers, keyword index, LanceDB store and bundled model.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
const queries = join(repoRoot, "test", "eval", "fixtures", "fixture-queries.jsonl");
let work: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, "eval", ...args], { cwd: work, env: { ...process.env, LANCEDB_LOG: "error" } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-eval-"));
  cpSync(join(repoRoot, "test", "fixtures", "repo"), join(work, "repo"), { recursive: true });
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("opencode-rag eval", () => {
  it("indexes the workspace when needed and reports every metric as JSON", async () => {
    const r = await run(["--queries", queries, "--root", "repo", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.presets).toHaveLength(1);
    const [p] = report.presets;
    expect(p.name).toBe("default");
    expect(p.summary.overall.count).toBe(6);
    expect(Object.keys(p.summary.byCategory).sort()).toEqual(["architecture", "semantic", "symbol"]);
    expect(Object.keys(p.summary.byLanguage).sort()).toEqual(["go", "python", "typescript"]);
    expect(p.summary.latency.p50).toBeGreaterThan(0);
    // Named symbols must come back first: that is what a user typing a class name expects.
    expect(p.summary.byCategory.symbol.ndcg10).toBe(1);
    expect(p.summary.byCategory.symbol.mrr10).toBe(1);
    const cart = p.queries.find((q: { id: string }) => q.id === "sym-cart");
    expect(cart.results[0].filePath).toBe("src/cart.ts");
    for (const q of p.queries) {
      for (const v of [q.ndcg10, q.mrr10, q.recall["10"]]) expect(v).toBeGreaterThanOrEqual(0);
      expect(q.ndcg10).toBeLessThanOrEqual(1);
    }
  });

  it("compares two configurations side by side in one run", async () => {
    const r = await run(["--queries", queries, "--root", "repo", "--no-index", "--compare", "bm25", "--no-rank"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("A = bm25   B = no-rank");
    expect(r.stdout).toMatch(/^overall\s+6\s/m);
    expect(r.stdout).toMatch(/^category:symbol\s+2\s/m);
    expect(r.stdout).toMatch(/latency A: p50 [\d.]+ \/ p95 [\d.]+ ms/);

    const j = await run(["--queries", queries, "--root", "repo", "--no-index", "--compare", "keyword-only", "bm25", "--json"]);
    expect(j.code, j.stderr).toBe(0);
    const report = JSON.parse(j.stdout);
    expect(report.presets.map((p: { name: string }) => p.name)).toEqual(["keyword-only", "bm25"]);
    expect(report.presets[1].search).toEqual({ mode: "keyword", rank: false });
    const overall = report.comparison.find((row: { group: string }) => row.group === "overall");
    expect(overall.count).toBe(6);
    expect(overall.a.ndcg10).toBe(report.presets[0].summary.overall.ndcg10);
  });

  it("takes a configuration from a JSON overrides file", async () => {
    const preset = join(work, "keyword-ranked.json");
    writeFileSync(preset, JSON.stringify({ search: { mode: "keyword", rank: true } }));
    const r = await run(["--queries", queries, "--root", "repo", "--no-index", "--preset", preset, "--json", "--category", "symbol"]);
    expect(r.code, r.stderr).toBe(0);
    const [p] = JSON.parse(r.stdout).presets;
    expect(p.name).toBe("keyword-ranked");
    expect(p.summary.overall.count).toBe(2);
  });

  it("never passes keyword results off as vector results", async () => {
    // A model that does not exist leaves the engine keyword-only (its own index, as the
    // embedding model is an index-changing key).
    const noModel = { overrides: { embedding: { model: "no-such-model" } } };
    const hybrid = join(work, "no-model.json");
    writeFileSync(hybrid, JSON.stringify(noModel));
    const ok = await run(["--queries", queries, "--root", "repo", "--preset", hybrid, "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).presets[0].keywordOnly).toBe(true);

    const vector = join(work, "no-model-vector.json");
    writeFileSync(vector, JSON.stringify({ ...noModel, search: { mode: "vector" } }));
    const r = await run(["--queries", queries, "--root", "repo", "--preset", vector]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/configuration "no-model-vector" needs vectors, but search in .* is keyword-only/);
  });

  it("fails with one clear line on bad input", async () => {
    const missing = await run(["--queries", "nope.jsonl", "--root", "repo"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toMatch(/^opencode-rag eval: query file not found: .*nope\.jsonl$/);

    const bad = join(work, "bad.jsonl");
    writeFileSync(bad, '{"query":"ok","relevant":[{"filePath":"a"}]}\n{"query":"no answers","relevant":[]}\n');
    const r = await run(["--queries", bad, "--root", "repo"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/bad\.jsonl:2: "relevant" must be a non-empty array/);

    const preset = await run(["--queries", queries, "--root", "repo", "--compare", "default"]);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toMatch(/--compare needs two configurations/);

    const unknown = await run(["--queries", queries, "--root", "repo", "--preset", "fastest"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown configuration "fastest"/);
  });
});
