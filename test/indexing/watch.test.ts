// Watch mode (F7): debounced, serialised passes with at most one queued follow-up, driven by
// chokidar or by git, keeping search current as files change.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IndexSummary } from "../../core/engine-types.js";
import { PassScheduler, type PassRequest } from "../../core/indexing/pass-scheduler.js";
import { KEYWORD_ONLY, pathsHolding, trackWorkspaces, tsFunction, writeFiles } from "./helpers.js";

const tracked = trackWorkspaces();

const keywordOnly = KEYWORD_ONLY;

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("PassScheduler", () => {
  it("merges a burst of changes into one pass after the debounce", async () => {
    const runs: PassRequest[] = [];
    const s = new PassScheduler(async (req) => void runs.push(req), 50);
    for (const p of ["a.ts", "b.ts", "a.ts", "c.ts"]) s.notify(p);
    await s.idle();
    expect(runs).toEqual([["a.ts", "b.ts", "c.ts"]]);
    await s.close();
  });

  it("never runs two passes at once and queues exactly one follow-up for changes during a pass", async () => {
    const runs: PassRequest[] = [];
    let concurrent = 0;
    let maxConcurrent = 0;
    const firstStarted = deferred<void>();
    const releaseFirst = deferred<void>();
    const s = new PassScheduler(async (req) => {
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      runs.push(req);
      if (runs.length === 1) {
        firstStarted.resolve();
        await releaseFirst.promise;
      }
      concurrent--;
    }, 10);
    s.notify("a.ts");
    await firstStarted.promise;
    for (const p of ["b.ts", "c.ts", "d.ts"]) s.notify(p);
    await new Promise((r) => setTimeout(r, 50)); // their debounce runs out while the pass is busy
    s.notify("e.ts");
    releaseFirst.resolve();
    await s.idle();
    expect(maxConcurrent).toBe(1);
    expect(runs).toEqual([["a.ts"], ["b.ts", "c.ts", "d.ts", "e.ts"]]);
    await s.close();
  });

  it("turns a full-pass request into one pass over everything", async () => {
    const runs: PassRequest[] = [];
    const s = new PassScheduler(async (req) => void runs.push(req), 10);
    s.notify("a.ts");
    s.notify(null);
    s.notify("b.ts");
    await s.idle();
    expect(runs).toEqual([null]);
    await s.close();
  });
});

/** Resolves with the first pass summary that satisfies `pred`. */
function passWhere(pred: (s: IndexSummary) => boolean) {
  const d = deferred<IndexSummary>();
  return { onPass: (s: IndexSummary) => pred(s) && d.resolve(s), done: d.promise };
}

describe("engine.watch", () => {
  it("indexes new, changed and deleted files through chokidar and writes a status file", async () => {
    const root = tracked.workspace({ "src/a.ts": tsFunction("alphaWatchedFunction", "a") });
    const engine = await tracked.engine(root, keywordOnly);
    await engine.index();
    let waiter: { pred: (s: IndexSummary) => boolean; resolve: (s: IndexSummary) => void } | null = null;
    const nextPass = (pred: (s: IndexSummary) => boolean) => new Promise<IndexSummary>((resolve) => (waiter = { pred, resolve }));
    const watcher = await engine.watch({
      debounceMs: 100,
      onPass: (s) => {
        if (waiter?.pred(s)) waiter.resolve(s);
      },
    });
    expect(JSON.parse(readFileSync(join(engine.stateDir, "watcher-status.json"), "utf8"))).toMatchObject({ state: "watching", backend: "chokidar", pid: process.pid });
    expect((await engine.status()).watch.state).toBe("watching");

    const added = nextPass((s) => s.filesIndexed > 0);
    writeFiles(root, { "src/b.ts": tsFunction("betaFreshlyWritten", "b"), "node_modules/x/index.ts": tsFunction("ignoredVendorCode", "v") });
    expect((await added).filesIndexed).toBe(1);
    expect(await pathsHolding(engine, "betaFreshlyWritten")).toEqual(["src/b.ts"]);
    expect(await pathsHolding(engine, "ignoredVendorCode")).toEqual([]);

    const deleted = nextPass((s) => s.filesDeleted > 0);
    rmSync(join(root, "src/a.ts"));
    await deleted;
    expect(await pathsHolding(engine, "alphaWatchedFunction")).toEqual([]);

    await watcher.close();
    expect((await engine.status()).watch.state).toBe("off");
  });

  it("re-scans everything when a .gitignore changes", async () => {
    const root = tracked.workspace({ "src/a.ts": tsFunction("alphaKept", "a"), "src/b.ts": tsFunction("betaSoonIgnored", "b") });
    const engine = await tracked.engine(root, keywordOnly);
    await engine.index();
    const removed = passWhere((s) => s.filesDeleted > 0);
    const watcher = await engine.watch({ debounceMs: 100, onPass: removed.onPass });
    writeFiles(root, { ".gitignore": "src/b.ts\n" });
    await removed.done;
    expect(await pathsHolding(engine, "betaSoonIgnored")).toEqual([]);
    await watcher.close();
  });

  it("maps git's paths when the workspace is a folder inside the repository", async () => {
    const repo = tracked.workspace({ "other/x.ts": tsFunction("outsideWorkspace", "x"), "app/src/a.ts": tsFunction("alphaInApp", "a") });
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { stdio: "ignore" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "one");
    const root = join(repo, "app");
    const engine = await tracked.engine(root, keywordOnly);
    await engine.index();
    let resolveChanged!: (s: IndexSummary) => void;
    const changed = new Promise<IndexSummary>((r) => (resolveChanged = r));
    const watcher = await engine.watch({ backend: "git", intervalMs: 1000, onPass: (s) => s.filesIndexed > 0 && resolveChanged(s) });
    writeFiles(root, { "src/b.ts": tsFunction("betaUncommittedInApp", "b") });
    writeFiles(repo, { "other/y.ts": tsFunction("elsewhereInRepo", "y") });
    const s = await changed;
    expect(s.filesIndexed).toBe(1);
    expect(await pathsHolding(engine, "betaUncommittedInApp")).toEqual(["src/b.ts"]);
    expect(await pathsHolding(engine, "elsewhereInRepo")).toEqual([]);
    await watcher.close();
  });

  it("follows commits and dirty files with the git backend", async () => {
    const root = tracked.workspace({ "src/a.ts": tsFunction("alphaCommitted", "a") });
    const git = (...args: string[]) => execFileSync("git", ["-C", root, "-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { stdio: "ignore" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "one");
    const engine = await tracked.engine(root, keywordOnly);
    await engine.index();
    const changed = passWhere((s) => s.filesIndexed > 0);
    const watcher = await engine.watch({ backend: "git", intervalMs: 1000, onPass: changed.onPass });
    writeFiles(root, { "src/c.ts": tsFunction("gammaFromGit", "c") });
    git("add", ".");
    git("commit", "-q", "-m", "two");
    const s = await changed.done;
    expect(s.filesIndexed).toBe(1);
    expect(await pathsHolding(engine, "gammaFromGit")).toEqual(["src/c.ts"]);
    await watcher.close();
  });
});
