// Empty or malformed arguments get one line of ours, naming what is wrong and what to type,
// and the usage exit code: never a validator's "Too small", a parser's three-line hint, or a
// search for nothing that prints "no results".
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
let work: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: work, env: { ...process.env, LANCEDB_LOG: "error" } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-cli-args-"));
  writeFileSync(join(work, "a.ts"), "export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n");
  writeFileSync(join(work, "opencode-rag.json"), JSON.stringify({ embedding: { provider: "none" }, logging: { logFilePath: "" } }));
  // An index, so that an empty query would otherwise be searched and answered "no results".
  const indexed = await run(["index"]);
  expect(indexed.code, indexed.stderr).toBe(0);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function refused(args: string[]): Promise<string> {
  const r = await run(args);
  expect(r.code, `${args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(2);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).not.toMatch(/Too (small|big)|expected (string|number)|ambiguous|Did you forget/);
  return lines[0];
}

describe("arguments the CLI refuses in its own words", () => {
  it("an empty or blank query", async () => {
    for (const text of ["", "   "]) {
      expect(await refused(["query", text])).toBe(
        'opencode-rag query: the query text is empty: say what to look for, e.g. opencode-rag query "where are embeddings batched" (see opencode-rag query --help)',
      );
    }
    expect(await refused(["query", "", "--json"])).toMatch(/the query text is empty/);
  });

  it("an empty symbol, and a malformed one or page", async () => {
    for (const symbol of ["", " "]) {
      expect(await refused(["usages", symbol])).toBe(
        "opencode-rag usages: the identifier is empty: give the one to find, e.g. opencode-rag usages parseConfig (see opencode-rag usages --help)",
      );
    }
    expect(await refused(["usages", "config.parse()"])).toMatch(/^opencode-rag usages: the symbol must be one identifier, e\.g\. parseConfig/);
    expect(await refused(["usages", "parseConfig", "--top-k", "500"])).toMatch(/: --top-k must be a whole number from 1 to 100 \(/);
    expect(await refused(["usages", "parseConfig", "--path", ""])).toMatch(/: --path is empty: give a workspace path prefix such as 'src\/', or leave it out \(/);
    expect(await refused(["usages", "parseConfig", "--offset", "-1"])).toMatch(/: --offset takes a value; write one that starts with a dash joined to it, as --offset=-1 \(/);
  });

  it("index --json with --watch, which prints no single summary", async () => {
    expect(await refused(["index", "--watch", "--json"])).toBe(
      "opencode-rag index: --json prints one pass's summary; it does not go with --watch (see opencode-rag index --help)",
    );
  });

  it("still answers the same arguments when they are well formed", async () => {
    const q = await run(["query", "parse config", "--json"]);
    expect(q.code, q.stderr).toBe(0);
    expect(JSON.parse(q.stdout)[0].filePath).toBe("a.ts");
    const u = await run(["usages", "parseConfig", "--json"]);
    expect(u.code, u.stderr).toBe(0);
    expect(JSON.parse(u.stdout).symbol).toBe("parseConfig");
    writeFileSync(join(work, "b.ts"), "export function loadSettings(path: string) {\n  return path;\n}\n");
    const i = await run(["index", "--json"]);
    expect(i.code, i.stderr).toBe(0);
    expect(JSON.parse(i.stdout)).toMatchObject({ filesIndexed: 1, filesUnchanged: 2, filesDeleted: 0, rebuildReason: null, errors: [] });
  });
});
