// A one-off `opencode-rag query` loads what searching needs and nothing else: the chunking
// runtime (web-tree-sitter) and the file watcher (chokidar) are imported by the code that
// parses or watches, and the small libraries every process uses (jsonc-parser, ignore) are
// compiled into the bundles. Each package loaded as such cost a fresh process ~10–20 ms.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
let work: string;
let scratch: string;

beforeAll(() => {
  ensureBuilt();
  scratch = mkdtempSync(join(tmpdir(), "rag-query-imports-"));
  work = join(scratch, "repo");
  cpSync(join(repoRoot, "test", "fixtures", "repo"), work, { recursive: true });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the CLI with a module hook that writes every URL it resolves to a file; returns them and stdout. */
function runRecordingImports(args: string[]): { stdout: string; resolved: string[] } {
  const log = join(scratch, `resolved-${args[0]}.txt`);
  const hooks = join(scratch, "hooks.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
  return result;
}
`,
  );
  const register = join(scratch, "register.mjs");
  writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(log, "");
  const stdout = execFileSync(process.execPath, ["--import", pathToFileURL(register).href, cli, ...args], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, LANCEDB_LOG: "error" },
  });
  return { stdout, resolved: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

/** The workspace indexed once, then one query's output and resolved modules (shared by the tests). */
let queried: { stdout: string; resolved: string[] } | null = null;
function oneOffQuery(): { stdout: string; resolved: string[] } {
  if (queried) return queried;
  execFileSync(process.execPath, [cli, "index"], { cwd: work, env: { ...process.env, LANCEDB_LOG: "error" }, stdio: "ignore" });
  return (queried = runRecordingImports(["query", "shipping cost by weight and distance", "--top-k", "3"]));
}

const packageOf = (url: string): string | null => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? null;

describe("what a one-off query loads", () => {
  it("finds the answer without loading the chunking runtime, the watcher, or an inlined library", () => {
    const { stdout, resolved } = oneOffQuery();
    expect(stdout).toMatch(/shipping/i);
    // the hook saw the process's modules: the CLI's own bundle at least
    expect(resolved.some((url) => url.endsWith("/dist/cli.js"))).toBe(true);
    const packages = new Set(resolved.map(packageOf).filter((p): p is string => p !== null));
    for (const unwanted of ["web-tree-sitter", "chokidar", "readdirp", "jsonc-parser", "ignore"]) expect(packages, unwanted).not.toContain(unwanted);
  });

  it("compiles none of the index pass's code: the indexer, the chunkers and descriptions come in their own chunks, loaded by a pass", () => {
    const { stdout, resolved } = oneOffQuery();
    expect(stdout).toMatch(/shipping/i);
    // esbuild marks each source module in a bundle with a "// path" line
    const passModules = ["core/indexing/indexer.ts", "core/chunking/ast-chunker.ts", "core/description/describer.ts"];
    const cliChunks = readdirSync(join(repoRoot, "dist", "cli")).filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(repoRoot, "dist", "cli", f), "utf8"));
    for (const m of passModules) expect(cliChunks.some((text) => text.includes(`\n// ${m}\n`)), m).toBe(true);
    const loaded = resolved.filter((url) => url.startsWith("file:") && url.includes("/dist/") && url.endsWith(".js")).map((url) => readFileSync(fileURLToPath(url), "utf8"));
    expect(loaded.length).toBeGreaterThan(1);
    for (const m of passModules) expect(loaded.some((text) => text.includes(`\n// ${m}\n`)), m).toBe(false);
  });
});
