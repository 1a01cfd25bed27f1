// The commands that run index passes (`index`, `mcp`) run in a child that has a pass's allocator
// settings: the child must really have them, the launcher must end as the child ends, pass on
// the signals sent to it alone, and a launcher killed outright must not leave the child running.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RELAUNCH_ABOVE_FILES, wantsRelaunch } from "../../cli/relaunch.js";
import { LAUNCHER_ENV, PASS_MALLOC_ENV } from "../../core/own-process.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";
import { KEYWORD_ONLY, makeWorkspace, trackWorkspaces, tsFunction, writeFiles } from "../indexing/helpers.js";

const { roots } = trackWorkspaces();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const linux = process.platform === "linux";

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await sleep(50);
  return cond();
}

function environOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, "latin1").split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

const running = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));

/** `opencode-rag index --watch` on a small keyword-only workspace, once it watches. */
async function startWatching(): Promise<{ cli: ChildProcess; stderr: () => string; exited: Promise<{ code: number | null; signal: string | null }> }> {
  ensureBuilt();
  const root = makeWorkspace({ "src/a.ts": tsFunction("alphaRelaunched", "a") });
  roots.push(root);
  writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(KEYWORD_ONLY));
  const env: NodeJS.ProcessEnv = { ...process.env, LANCEDB_LOG: "error" };
  for (const name of Object.keys(PASS_MALLOC_ENV)) delete env[name];
  const cli = spawn(process.execPath, [join(repoRoot, "dist", "cli.js"), "index", "--watch"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  cli.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => cli.on("exit", (code, signal) => resolve({ code, signal })));
  expect(await waitFor(() => stderr.includes("watching"), 30_000), stderr).toBe(true);
  return { cli, stderr: () => stderr, exited };
}

/** A workspace of one file more than an `index` runs where it is (one line each, in 100 folders). */
function bigWorkspace(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i <= RELAUNCH_ABOVE_FILES; i++) files[`src/d${i % 100}/f${i}.ts`] = `export const f${i} = ${i};\n`;
  const root = makeWorkspace(files);
  roots.push(root);
  return root;
}

describe("which invocations run in a relaunched child", () => {
  it("the commands that may run big passes, on Linux, unless already relaunched or the user set the allocator", () => {
    const fresh = bigWorkspace();
    const want = (argv: string[], env: NodeJS.ProcessEnv = {}, platform = "linux") => wantsRelaunch(argv, env, platform, fresh);
    expect(want(["index"])).toBe(true);
    expect(want(["mcp", "--root", fresh])).toBe(true);
    expect(want(["query", "x"])).toBe(false);
    expect(want(["status"])).toBe(false);
    expect(want([])).toBe(false);
    expect(want(["index"], {}, "darwin")).toBe(false);
    expect(want(["index"], { [LAUNCHER_ENV]: "123" })).toBe(false);
    for (const name of Object.keys(PASS_MALLOC_ENV)) expect(want(["index"], { [name]: "8" })).toBe(false);
    // An indexed workspace: a plain index pass (mostly a no-op) runs where it is; a forced or
    // watching one, which may be big, still moves.
    mkdirSync(join(fresh, ".opencode", "rag_db"), { recursive: true });
    writeFileSync(join(fresh, ".opencode", "rag_db", "manifest.json"), "{}");
    expect(want(["index"])).toBe(false);
    expect(want(["index", "--force"])).toBe(true);
    expect(want(["index", "--watch"])).toBe(true);
    expect(want(["mcp"])).toBe(true);
  });

  it("a first or forced index of a small workspace runs where it is: the launcher would hold more memory than the child saves", () => {
    const small = makeWorkspace({ "src/a.ts": tsFunction("alphaSmall", "a") });
    roots.push(small);
    const want = (argv: string[]) => wantsRelaunch(argv, {}, "linux", small);
    expect(want(["index"])).toBe(false);
    expect(want(["index", "--force"])).toBe(false);
    // A serving or watching process stays relaunched, whatever the size.
    expect(want(["index", "--watch"])).toBe(true);
    expect(want(["mcp"])).toBe(true);
    // Files in excluded folders do not count (node_modules); counted, they make it big.
    const deps: Record<string, string> = {};
    for (let i = 0; i <= RELAUNCH_ABOVE_FILES; i++) deps[`node_modules/p${i % 50}/f${i}.js`] = "";
    writeFiles(small, deps);
    expect(want(["index"])).toBe(false);
    writeFileSync(join(small, "opencode-rag.json"), JSON.stringify({ indexing: { excludeDirs: [".git"] } }));
    expect(want(["index"])).toBe(true);
  });

  it("a plain index looks for the index where the config puts it (the workspace's file or --config)", () => {
    const root = bigWorkspace();
    const want = (argv: string[]) => wantsRelaunch(argv, {}, "linux", root);
    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ vectorStore: { path: "indexes/main" } }));
    expect(want(["index"])).toBe(true);
    mkdirSync(join(root, "indexes", "main"), { recursive: true });
    writeFileSync(join(root, "indexes", "main", "manifest.json"), "{}");
    expect(want(["index"])).toBe(false);
    // Another config file, relative to where the command runs, in either spelling.
    writeFileSync(join(root, "other.json"), JSON.stringify({ vectorStore: { path: "indexes/other" } }));
    expect(want(["index", "--config", "other.json"])).toBe(true);
    expect(want(["index", "--config=other.json"])).toBe(true);
    mkdirSync(join(root, "indexes", "other"), { recursive: true });
    writeFileSync(join(root, "indexes", "other", "manifest.json"), "{}");
    expect(want(["index", "--config", "other.json"])).toBe(false);
    // A config the CLI cannot read: the command reports it, in this process.
    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ vectorStore: { pathh: "x" } }));
    expect(want(["index"])).toBe(false);
  });
});

describe.skipIf(!linux)("opencode-rag index --watch, relaunched", () => {
  it("runs its pass in a child with the allocator settings, and ends with it on a SIGTERM sent to the launcher", async () => {
    const { cli, stderr, exited } = await startWatching();
    try {
      const [child] = childrenOf(cli.pid!);
      expect(child).toBeGreaterThan(0);
      const childEnv = environOf(child);
      for (const [name, value] of Object.entries(PASS_MALLOC_ENV)) {
        expect(childEnv[name]).toBe(value);
        expect(environOf(cli.pid!)[name]).toBeUndefined();
      }
      cli.kill("SIGTERM");
      // The watch stops cleanly (exit 0, not killed), and the child is gone with the launcher.
      expect(await Promise.race([exited, sleep(20_000).then(() => "still running")])).toEqual({ code: 0, signal: null });
      expect(running(child)).toBe(false);
      expect(stderr()).toContain("watching");
    } finally {
      cli.kill("SIGKILL");
    }
  });

  it("a launcher killed outright takes its child down within seconds", async () => {
    const { cli, exited } = await startWatching();
    const [child] = childrenOf(cli.pid!);
    expect(child).toBeGreaterThan(0);
    cli.kill("SIGKILL");
    await exited;
    expect(await waitFor(() => !running(child), 10_000)).toBe(true);
  });

  it("a child killed by a signal takes its launcher down by the same signal", async () => {
    const { cli, exited } = await startWatching();
    try {
      const [child] = childrenOf(cli.pid!);
      expect(child).toBeGreaterThan(0);
      process.kill(child, "SIGKILL");
      expect(await Promise.race([exited, sleep(10_000).then(() => "still running")])).toEqual({ code: null, signal: "SIGKILL" });
    } finally {
      cli.kill("SIGKILL");
    }
  });

  it("passes the child's exit code and error line on", async () => {
    ensureBuilt();
    const env: NodeJS.ProcessEnv = { ...process.env, LANCEDB_LOG: "error" };
    for (const name of Object.keys(PASS_MALLOC_ENV)) delete env[name];
    const root = makeWorkspace({ "src/a.ts": tsFunction("alphaExitCode", "a") });
    roots.push(root);
    const cli = spawn(process.execPath, [join(repoRoot, "dist", "cli.js"), "index", "--watch", "--no-such-option"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    cli.stderr!.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => cli.on("exit", (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/no-such-option/);
  });
});
