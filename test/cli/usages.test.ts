// `opencode-rag usages` through the built dist/cli.js: the find_usages answer in a terminal and
// as JSON, on a workspace where one file holds 90 of the symbol's 96 uses — before an index
// exists (workspace scan) and after `opencode-rag index` (keyword candidates).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../core/logging/index.js";
import { coreDeps } from "../../opencode-plugin/index.js";
import { runFindUsages } from "../../opencode-plugin/tools/find-usages.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { heavyFileList, heavyUsageFiles, HEAVY_SYMBOL } from "../fixtures/heavy-usages.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";
import { writeTree } from "../plugin/helpers.js";

const cli = join(repoRoot, "dist", "cli.js");
let work: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: work, env: { ...process.env, LANCEDB_LOG: "error" } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

interface JsonUsages {
  total: number;
  files: Array<{ filePath: string; count: number; kinds: Record<string, number>; importer: boolean; test: boolean }>;
  offset: number;
  uses: Array<{ filePath: string; line: number; kind: string; text: string }>;
  remaining: { uses: number; files: number };
  nextOffset?: number;
}

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-cli-usages-"));
  writeTree(work, { ...heavyUsageFiles(), "opencode-rag.json": JSON.stringify({ embedding: { provider: "none" }, logging: { logFilePath: "" } }) });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("opencode-rag usages", () => {
  it("prints the tool's answer, with the flags that page through the rest", async () => {
    const r = await run(["usages", HEAVY_SYMBOL]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(heavyFileList().join("\n"));
    expect(r.stdout).toContain("66 more uses in 1 file: run the same command with --offset 30 for the next ones, or with --file src/analytics/aggregate.ts (no offset) for that file's alone.");
    // The same collection and text as find_usages; only the way to ask for more differs.
    const ws = new RagWorkspace(work, { ...coreDeps, openEngine: () => Promise.reject(new Error("no index")) }, { logger: silentLogger });
    const tool = await runFindUsages(ws, { symbolName: HEAVY_SYMBOL });
    const body = (text: string) => text.replace(/\n\n66 more uses in 1 file: .*$/s, "");
    expect(body(r.stdout.trimEnd())).toBe(body(tool));
  });

  it("pages with --offset and --file, and prints the report with --json", async () => {
    const json = await run(["usages", HEAVY_SYMBOL, "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const first = JSON.parse(json.stdout) as JsonUsages;
    expect(first.total).toBe(96);
    expect(first.files.map((f) => [f.filePath, f.count])).toEqual([
      ["src/server/metrics.ts", 1],
      ["src/server/routes.ts", 3],
      ["src/analytics/aggregate.ts", 90],
      ["test/routes.test.ts", 2],
    ]);
    expect(first.files[1]).toMatchObject({ kinds: { import: 1, call: 2 }, importer: true, test: false });
    expect(new Set(first.uses.map((u) => u.filePath)).size).toBe(4);
    expect(first.uses[0]).toMatchObject({ filePath: "src/server/metrics.ts", line: 1, kind: "re-export", text: 'export { recordHit } from "../analytics/aggregate";' });
    expect(first).toMatchObject({ offset: 0, remaining: { uses: 66, files: 1 }, nextOffset: 30 });

    const rest = JSON.parse((await run(["usages", HEAVY_SYMBOL, "--json", "--offset", "30", "--top-k", "100"])).stdout) as JsonUsages;
    expect(rest.uses).toHaveLength(66);
    expect(rest.remaining.uses).toBe(0);
    expect(rest.nextOffset).toBeUndefined();

    const one = await run(["usages", HEAVY_SYMBOL, "--file", "src/server/routes.ts"]);
    expect(one.stdout).toContain("## Usages of `recordHit` in src/server/routes.ts — 3 reference(s) (import 1, call 2)");
    expect(one.stdout).not.toContain("aggregate.ts —");
  });

  it("answers from the index once there is one, and explains bad arguments", async () => {
    const indexed = await run(["index"]);
    expect(indexed.code, indexed.stderr).toBe(0);
    const r = await run(["usages", HEAVY_SYMBOL]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("no usable index");
    expect(r.stdout).toContain(heavyFileList().join("\n"));
    const bad = await run(["usages", "a.b()"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("opencode-rag usages: the symbol must be one identifier, e.g. parseConfig");
    const offset = await run(["usages", HEAVY_SYMBOL, "--offset", "two"]);
    expect(offset.stderr).toContain('--offset must be a whole number, got "two"');
  });
});
