// The watcher survives what happens to folders under it: a folder unreadable for a while is
// watched and indexed again once readable; a deleted workspace stops it (with an error, never
// recreating `<root>/.opencode/`); the git backend never takes git's optional locks.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "./dist-build.js";
import { engineFor, KEYWORD_ONLY, makeWorkspace, trackWorkspaces, tsFunction } from "./helpers.js";

const { roots, engines } = trackWorkspaces();

const keywordOnly = KEYWORD_ONLY;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await sleep(50);
}

function gitInit(root: string): void {
  execFileSync("git", ["init", "-q"], { cwd: root });
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "add", "."], { cwd: root });
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"], { cwd: root });
}

describe("watcher on a deleted workspace", () => {
  it.each(["chokidar", "git"] as const)("%s: stops with an error and never recreates the folder", async (backend) => {
    const root = makeWorkspace({ "src/a.ts": tsFunction("alphaWatched", "a") });
    roots.push(root);
    if (backend === "git") gitInit(root);
    const engine = await engineFor(root, keywordOnly);
    engines.push(engine);
    await engine.index();
    const errors: Error[] = [];
    await engine.watch({ backend, debounceMs: 50, intervalMs: 1000, onError: (e) => errors.push(e) });
    rmSync(root, { recursive: true, force: true });
    await waitFor(() => errors.length > 0);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/workspace folder .* was deleted; stopped watching/)]);
    await sleep(2500);
    expect(existsSync(root)).toBe(false);
    // A pass asked for directly says so, and creates nothing either.
    await expect(engine.index()).rejects.toThrow(/does not exist/);
    expect(existsSync(root)).toBe(false);
  });
});

describe("git backend", () => {
  it("runs every git command without optional locks", async () => {
    const root = makeWorkspace({ "src/a.ts": tsFunction("alphaGit", "a") });
    roots.push(root);
    gitInit(root);
    // A git on PATH that logs its arguments and environment, then runs the real one.
    const bin = mkdtempSync(join(tmpdir(), "rag-fake-git-"));
    roots.push(bin);
    const realGit = execFileSync("sh", ["-c", "command -v git"]).toString().trim();
    const log = join(bin, "calls.log");
    writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$GIT_OPTIONAL_LOCKS $*" >> ${log}\nexec ${realGit} "$@"\n`);
    chmodSync(join(bin, "git"), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const engine = await engineFor(root, keywordOnly);
      engines.push(engine);
      await engine.index();
      const w = await engine.watch({ backend: "git", debounceMs: 50, intervalMs: 1000 });
      writeFileSync(join(root, "src", "b.ts"), tsFunction("betaGit", "b"));
      await waitFor(() => existsSync(log) && readFileSync(log, "utf8").includes("status"));
      await w.close();
    } finally {
      process.env.PATH = path;
    }
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c).toMatch(/^0 --no-optional-locks /);
  });
});

describe("a folder unreadable for a while", () => {
  // Root reads every folder whatever its mode: the watcher then runs as another user.
  const asRoot = process.getuid?.() === 0;

  it("is watched and indexed again once readable", async () => {
    ensureBuilt();
    const root = makeWorkspace({ "r.ts": tsFunction("rootLevelToken", "r"), "src/deep/sub/a.ts": tsFunction("alphaUnreadable", "a") });
    roots.push(root);
    const sub = join(root, "src", "deep", "sub");
    if (asRoot) {
      chmodSync(root, 0o755);
      for (const p of [root, join(root, "src"), join(root, "src", "deep"), sub, join(sub, "a.ts"), join(root, "r.ts")]) chownSync(p, 65534, 65534);
    }
    chmodSync(sub, 0);
    const script = `
      import { openEngine } from ${JSON.stringify(join(repoRoot, "dist", "library.js"))};
      import { createInterface } from "node:readline";
      const engine = await openEngine({ root: ${JSON.stringify(root)}, overrides: ${JSON.stringify(keywordOnly)} });
      await engine.index();
      const w = await engine.watch({ backend: "chokidar", debounceMs: 50 });
      console.log("ready");
      createInterface({ input: process.stdin }).on("line", async () => {
        const hits = (await engine.search("betaUnreadable alphaUnreadable", { mode: "keyword" })).map((r) => r.chunk.filePath);
        console.log(JSON.stringify(hits));
        await w.close();
        await engine.close();
        process.exit(0);
      });`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["pipe", "pipe", "inherit"],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    try {
      await waitFor(() => out.includes("ready"), 30_000);
      expect(out).toContain("ready");
      chmodSync(sub, 0o755);
      await sleep(2500);
      writeFileSync(join(sub, "b.ts"), tsFunction("betaUnreadable", "b"));
      if (asRoot) chownSync(join(sub, "b.ts"), 65534, 65534);
      await sleep(2500);
      child.stdin!.write("go\n");
      await waitFor(() => out.includes("["), 15_000);
      const hits = JSON.parse(out.slice(out.indexOf("[")).split("\n")[0]) as string[];
      expect(hits.sort()).toEqual(["src/deep/sub/a.ts", "src/deep/sub/b.ts"]);
    } finally {
      child.kill("SIGKILL");
      if (existsSync(sub) && (statSync(sub).mode & 0o777) === 0) chmodSync(sub, 0o755);
    }
  });
});

describe("opencode-rag index --watch on a deleted workspace", () => {
  it("exits with an error once the folder is gone, without recreating it", async () => {
    ensureBuilt();
    const root = makeWorkspace({ "src/a.ts": tsFunction("alphaCliWatch", "a") });
    roots.push(root);
    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ embedding: { provider: "local", model: "./no-such-model" } }));
    const cli = spawn(process.execPath, [join(repoRoot, "dist", "cli.js"), "index", "--watch"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    cli.stderr!.on("data", (d) => (stderr += d));
    const exited = new Promise<number>((resolve) => cli.on("exit", (code) => resolve(code ?? -1)));
    try {
      await waitFor(() => stderr.includes("watching"), 30_000);
      rmSync(root, { recursive: true, force: true });
      const code = await Promise.race([exited, sleep(15_000).then(() => -2)]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/workspace folder .* was deleted/);
      expect(existsSync(root)).toBe(false);
    } finally {
      cli.kill("SIGKILL");
    }
  });
});
