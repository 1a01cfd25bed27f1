// The semble benchmark's scoring rules as eval:semble-dev applies them, on a tiny kit written
// here: binary gain over relevant + secondary, path-suffix matching, spans that must overlap,
// no file de-duplication, Recall@10 over the relevant files, macro means over repos.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTasks, scoreRun, type RepoSpec } from "./semble-score.js";

const kit = mkdtempSync(join(tmpdir(), "semble-kit-"));
afterAll(() => rmSync(kit, { recursive: true, force: true }));
mkdirSync(join(kit, "annotations"));
const specs: RepoSpec[] = [
  { name: "alpha", language: "python", url: "", revision: "", benchmark_root: "src/alpha" },
  { name: "beta", language: "go", url: "", revision: "" },
];
writeFileSync(
  join(kit, "annotations", "alpha.json"),
  JSON.stringify([
    { query: "how are routes registered", relevant: ["src/alpha/routing.py"], secondary: ["src/alpha/app.py"], category: "architecture" },
    { query: "Router", relevant: [{ path: "src/alpha/routing.py", start_line: 10, end_line: 20 }], secondary: [] },
  ]),
);
writeFileSync(join(kit, "annotations", "beta.json"), JSON.stringify([{ query: "flag parsing", relevant: ["flags.go"], secondary: [] }]));
writeFileSync(join(kit, "annotations", "other.json"), JSON.stringify([{ query: "ignored", relevant: ["x"] }]));

const ndcg = (ranks: number[], targets: number) => {
  const dcg = ranks.reduce((a, r) => a + 1 / Math.log2(r + 1), 0);
  let ideal = 0;
  for (let i = 1; i <= Math.min(10, targets); i++) ideal += 1 / Math.log2(i + 1);
  return dcg / ideal;
};

describe("semble-dev scoring", () => {
  const tasks = loadTasks(kit, specs);

  it("reads the kit's tasks for the listed repos, inferring missing categories", () => {
    expect(tasks.map((t) => [t.repo, t.category])).toEqual([
      ["alpha", "architecture"],
      ["alpha", "symbol"],
      ["beta", "semantic"],
    ]);
  });

  it("scores positions as given: a file's second chunk takes a position and scores nothing", () => {
    const run = [
      {
        repo: "alpha",
        query: "how are routes registered",
        results: [{ filePath: "src/alpha/other.py" }, { filePath: "src/alpha/other.py" }, { filePath: "src/alpha/routing.py" }, { filePath: "src/alpha/routing.py" }, { filePath: "src/alpha/app.py" }],
      },
      // A span must overlap the target's span: 1-5 misses, 15-30 hits at position 2.
      { repo: "alpha", query: "Router", results: [{ filePath: "src/alpha/routing.py", startLine: 1, endLine: 5 }, { filePath: "src/alpha/routing.py", startLine: 15, endLine: 30 }] },
      // Path-suffix match: results relative to the checkout root.
      { repo: "beta", query: "flag parsing", results: [{ filePath: "flags.go" }] },
    ];
    const s = scoreRun(tasks, specs, run);
    const arch = ndcg([3, 5], 2);
    const sym = ndcg([2], 1);
    expect(s.perQuery.map((q) => q.ndcg)).toEqual([arch, sym, 1].map((x) => expect.closeTo(x, 10)));
    expect(s.byRepo.alpha.ndcg).toBeCloseTo((arch + sym) / 2, 10);
    expect(s.overall.ndcg).toBeCloseTo(((arch + sym) / 2 + 1) / 2, 10);
    expect(s.byCategory.symbol.ndcg).toBeCloseTo(sym, 10);
    expect(s.byLanguage.go.ndcg).toBe(1);
    // Recall@10 counts the relevant file only (the secondary app.py does not add to it).
    expect(s.perQuery[0].recall).toBe(1);
  });

  it("counts a missing answer as 0 and a target beyond 10 as a miss", () => {
    const far = Array.from({ length: 12 }, (_, i) => ({ filePath: i === 11 ? "flags.go" : `f${i}.go` }));
    const s = scoreRun(tasks, specs, [{ repo: "beta", query: "flag parsing", results: far }]);
    expect(s.byRepo.beta).toEqual({ ndcg: 0, recall: 0 });
    expect(s.byRepo.alpha).toEqual({ ndcg: 0, recall: 0 });
  });
});
