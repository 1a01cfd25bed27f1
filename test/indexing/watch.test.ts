// Watch mode (F7): debounced, serialised passes with at most one queued follow-up, driven by
// chokidar or by git, keeping search current as files change.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IndexSummary } from "../../core/engine-types.js";
import { PassScheduler, type PassRequest } from "../../core/indexing/pass-scheduler.js";
import { OPENCODE_BIN } from "../e2e/opencode.js";
import { ensureBuilt, repoRoot } from "./dist-build.js";
import { KEYWORD_ONLY, pathsHolding, trackWorkspaces, tsFunction, writeFiles } from "./helpers.js";

const tracked = trackWorkspaces();

const keywordOnly = KEYWORD_ONLY;

/**
 * Indexes a workspace of `files` and watches it from a script run by OpenCode's own binary as
 * Bun (BUN_BE_BUN), the runtime the plugin runs on; `body` then has root, engine, watcher,
 * writeFileSync, `passes` (the watcher's summaries) and `indexed` (their files indexed), and
 * returns what the test reads, with the runtime added.
 */
function watchUnderBun(files: Record<string, string>, body: string): unknown {
  ensureBuilt();
  const root = tracked.workspace({ "opencode-rag.json": JSON.stringify(keywordOnly), ...files });
  const script = join(root, "..", `bun-watch-${Date.now()}.mjs`);
  writeFileSync(
    script,
    `const lib = await import(${JSON.stringify(join(repoRoot, "dist", "library.js"))});
const root = ${JSON.stringify(root)};
const { writeFileSync } = await import("node:fs");
const engine = await lib.openEngine({ root });
await engine.index();
const passes = [];
let indexed = 0;
const watcher = await engine.watch({ backend: "chokidar", debounceMs: 200, onPass: (s) => { passes.push(s); indexed += s.filesIndexed; } });
const result = await (async () => {
${body}
})();
console.log(JSON.stringify({ runtime: process.versions.bun ? "bun" : "node", ...result }));
await engine.close();
process.exit(0);
`,
  );
  try {
    const out = execFileSync(OPENCODE_BIN, [script], { cwd: root, encoding: "utf8", env: { ...process.env, BUN_BE_BUN: "1", LANCEDB_LOG: "error" } });
    return JSON.parse(out.trim().split("\n").at(-1)!);
  } finally {
    rmSync(script, { force: true });
  }
}

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

/** The system watches this process holds (Linux: one `inotify wd:` line per watch in /proc/self/fdinfo). */
function inotifyWatches(): number {
  let n = 0;
  for (const fd of readdirSync("/proc/self/fdinfo")) {
    try {
      n += readFileSync(`/proc/self/fdinfo/${fd}`, "utf8").split("\n").filter((l) => l.startsWith("inotify wd:")).length;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

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

  it("follows an edit, a folder that appears with files in it and a renamed folder", async () => {
    const root = tracked.workspace({ "src/a.ts": tsFunction("alphaBeforeEdit", "a"), "src/util/b.ts": tsFunction("betaInRenamedFolder", "b") });
    const engine = await tracked.engine(root, keywordOnly);
    await engine.index();
    let waiter: { pred: (s: IndexSummary) => boolean; resolve: (s: IndexSummary) => void } | null = null;
    const nextPass = (pred: (s: IndexSummary) => boolean) => new Promise<IndexSummary>((resolve) => (waiter = { pred, resolve }));
    const watcher = await engine.watch({ debounceMs: 100, onPass: (s) => void (waiter?.pred(s) && waiter.resolve(s)) });

    const edited = nextPass((s) => s.filesIndexed > 0);
    appendFileSync(join(root, "src/a.ts"), tsFunction("alphaAfterEdit", "appended"));
    await edited;
    expect(await pathsHolding(engine, "alphaAfterEdit")).toEqual(["src/a.ts"]);

    // A folder made elsewhere and moved in whole: its files were never written under a watch.
    const staged = join(root, "..", `staged-${Date.now()}`);
    mkdirSync(join(staged, "deeper"), { recursive: true });
    writeFileSync(join(staged, "c.ts"), tsFunction("gammaMovedInFolder", "c"));
    writeFileSync(join(staged, "deeper/d.ts"), tsFunction("deltaNestedMovedIn", "d"));
    const movedIn = nextPass((s) => s.filesIndexed >= 2);
    renameSync(staged, join(root, "src/feature"));
    await movedIn;
    expect(await pathsHolding(engine, "gammaMovedInFolder")).toEqual(["src/feature/c.ts"]);
    expect(await pathsHolding(engine, "deltaNestedMovedIn")).toEqual(["src/feature/deeper/d.ts"]);

    const renamed = nextPass((s) => s.filesDeleted > 0 && s.filesIndexed > 0);
    renameSync(join(root, "src/util"), join(root, "src/helpers"));
    await renamed;
    expect(await pathsHolding(engine, "betaInRenamedFolder")).toEqual(["src/helpers/b.ts"]);
    await watcher.close();
  });

  it("watches folders, not files: one system watch per folder", async () => {
    const files: Record<string, string> = {};
    for (const dir of ["src/api", "src/db", "lib"]) for (let i = 0; i < 40; i++) files[`${dir}/f${i}.ts`] = tsFunction(`fn${dir.replace("/", "")}${i}`, "x");
    const root = tracked.workspace(files);
    const engine = await tracked.engine(root, keywordOnly);
    await engine.index();
    const before = inotifyWatches();
    const watcher = await engine.watch({ debounceMs: 100 });
    try {
      // root, src, src/api, src/db, lib (and the workspace's own folders, excluded: none watched)
      expect(inotifyWatches() - before).toBeLessThanOrEqual(6);
    } finally {
      await watcher.close();
    }
  });

  it("a pass over a folder's entries finds what changed in it, unnamed, and leaves its subfolders", async () => {
    const root = tracked.workspace({
      "src/a.ts": tsFunction("alphaKeptAsIs", "a"),
      "src/b.ts": tsFunction("betaBeforeEdit", "b"),
      "src/c.ts": tsFunction("gammaDeletedUnnamed", "c"),
      "src/deep/d.ts": tsFunction("deltaBeforeEdit", "d"),
      "top.ts": tsFunction("topBeforeEdit", "t"),
    });
    const engine = await tracked.engine(root, keywordOnly);
    await engine.index();
    writeFileSync(join(root, "src/b.ts"), tsFunction("betaAfterEdit", "b"));
    writeFileSync(join(root, "src/e.ts"), tsFunction("epsilonNewUnnamed", "e"));
    rmSync(join(root, "src/c.ts"));
    writeFileSync(join(root, "src/deep/d.ts"), tsFunction("deltaAfterEdit", "d"));
    const pass = await engine.index({ onlyPaths: ["src/"] });
    expect(pass).toMatchObject({ filesIndexed: 2, filesDeleted: 1, filesUnchanged: 1 });
    expect(await pathsHolding(engine, "betaAfterEdit")).toEqual(["src/b.ts"]);
    expect(await pathsHolding(engine, "epsilonNewUnnamed")).toEqual(["src/e.ts"]);
    expect(await pathsHolding(engine, "gammaDeletedUnnamed")).toEqual([]);
    expect(await pathsHolding(engine, "deltaBeforeEdit")).toEqual(["src/deep/d.ts"]); // its own folder's pass takes it
    writeFileSync(join(root, "top.ts"), tsFunction("topAfterEdit", "t"));
    expect(await engine.index({ onlyPaths: ["/"] })).toMatchObject({ filesIndexed: 1, filesDeleted: 0 });
    expect(await pathsHolding(engine, "topAfterEdit")).toEqual(["top.ts"]);
    // A folder gone since: what it held goes.
    rmSync(join(root, "src"), { recursive: true });
    expect(await engine.index({ onlyPaths: ["src/"] })).toMatchObject({ filesDeleted: 4 });
  });

  it("a folder pass knows the files later passes of the same process added and removed there", async () => {
    const root = tracked.workspace({ "src/a.ts": tsFunction("alphaStays", "a"), "src/b.ts": tsFunction("betaGoesByName", "b") });
    const engine = await tracked.engine(root, keywordOnly);
    await engine.index();
    expect(await engine.index({ onlyPaths: ["src/"] })).toMatchObject({ filesDeleted: 0, filesUnchanged: 2 });
    // Added and removed by their own names, between the folder's passes.
    writeFileSync(join(root, "src/c.ts"), tsFunction("gammaAddedByName", "c"));
    expect(await engine.index({ onlyPaths: ["src/c.ts"] })).toMatchObject({ filesIndexed: 1 });
    rmSync(join(root, "src/b.ts"));
    expect(await engine.index({ onlyPaths: ["src/b.ts"] })).toMatchObject({ filesDeleted: 1 });
    rmSync(join(root, "src/c.ts"));
    expect(await engine.index({ onlyPaths: ["src/"] })).toMatchObject({ filesDeleted: 1, filesUnchanged: 1 });
    expect(await pathsHolding(engine, "gammaAddedByName")).toEqual([]);
    expect(await pathsHolding(engine, "alphaStays")).toEqual(["src/a.ts"]);
  });

  it("under Bun, whose folder watch names one of many changes read at once, every file written reaches the index", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/f${i}.ts`] = tsFunction(`beforeSwitch${i}`, "x");
    const result = watchUnderBun(
      files,
      `for (let i = 0; i < 12; i++) writeFileSync(root + "/src/f" + i + ".ts", "export const afterSwitch" + i + " = " + i + ";\\n");
const until = Date.now() + 20000;
while (indexed < 12 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
await watcher.close();
const found = [];
for (let i = 0; i < 12; i++) if ((await engine.search("afterSwitch" + i, { mode: "keyword", topK: 1 }))[0]?.chunk.filePath === "src/f" + i + ".ts") found.push(i);
return { indexed, found: found.length };`,
    );
    expect(result).toEqual({ runtime: "bun", indexed: 12, found: 12 });
  }, 60_000);

  it("under Bun, a .gitignore edited beside other files while the host is busy still re-scans everything", async () => {
    // Bun then reports one event for the folder, named after its first file, and none for the .gitignore.
    const files: Record<string, string> = { ".gitignore": "# nothing yet\n", "lib/notes.ts": tsFunction("soonIgnoredNotes", "n") };
    for (let i = 0; i < 12; i++) files[`f${i}.ts`] = tsFunction(`beforeSwitch${i}`, "x");
    const result = watchUnderBun(
      files,
      `for (let i = 0; i < 12; i++) {
  if (i === 6) writeFileSync(root + "/.gitignore", "lib/notes.ts\\n");
  writeFileSync(root + "/f" + i + ".ts", "export const afterSwitch" + i + " = " + i + ";\\n");
}
const busy = Date.now();
while (Date.now() - busy < 300);
const until = Date.now() + 20000;
while ((indexed < 12 || passes.every((s) => s.filesDeleted === 0)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
await watcher.close();
const hits = (await engine.search("soonIgnoredNotes", { mode: "keyword", topK: 5 })).map((r) => r.chunk.filePath);
return { indexed, notesStillIndexed: hits.includes("lib/notes.ts") };`,
    );
    expect(result).toEqual({ runtime: "bun", indexed: 13, notesStillIndexed: false });
  }, 60_000);

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
