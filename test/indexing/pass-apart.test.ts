// Big passes in a process of their own (core/indexing/pass-apart.ts): a watcher's pass over more
// changed bytes than its limit runs as `opencode-rag index` in a child (over the watcher's paths
// when it had some), and this process's
// engine answers from what the child committed; a pass under the limit runs here; a child that
// fails leaves the pass to this process; closing the watcher ends the child.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import type { Engine, IndexSummary, Logger } from "../../core/engine-types.js";
import { passesApart } from "../../core/indexing/pass-apart.js";
import { PassTooBigError } from "../../core/indexing/pass-env.js";
import { manifestPath, readManifestHeader } from "../../core/indexing/manifest.js";
import { OPENCODE_BIN } from "../e2e/opencode.js";
import { ensureBuilt, repoRoot } from "./dist-build.js";
import { KEYWORD_ONLY, recordingLogger, trackWorkspaces, tsFunction, until, type LoggedLine } from "./helpers.js";

beforeAll(() => ensureBuilt());
const tracked = trackWorkspaces();

/** A keyword-only workspace whose config the child reads as the engine here does. */
function workspace(files: Record<string, string>): string {
  return tracked.workspace({ "opencode-rag.json": JSON.stringify(KEYWORD_ONLY), ...files });
}

/** Twenty files of about 100 bytes each: over a limit of 1,000 bytes together, under it one by one. */
function ledgerFiles(): Record<string, string> {
  return Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/ledger${i}.ts`, tsFunction(`settleLedger${i}`, "settles a ledger")]));
}

async function openTracked(root: string, logger: Logger): Promise<Engine> {
  const engine = await openEngine({ root, logger });
  tracked.engines.push(engine);
  return engine;
}

const ranApart = (logger: { lines: LoggedLine[] }) => logger.lines.filter((l) => l.message === "pass done in a process of its own");

describe("passes apart", () => {
  it("a watcher runs a pass over its limit in a child and an edit under it here; the engine here answers from both", async () => {
    const root = workspace(ledgerFiles());
    const logger = recordingLogger();
    const engine = await openTracked(root, logger);
    const passes: IndexSummary[] = [];
    const watcher = await engine.watch({ backend: "chokidar", debounceMs: 100, catchUp: true, passesApart: passesApart(root, { aboveBytes: 1000 }), onPass: (s) => passes.push(s) });
    try {
      await until("the catch-up pass", () => passes.length >= 1);
      expect(passes[0]).toMatchObject({ filesIndexed: 21, filesDeleted: 0 }); // the child's own summary
      expect(ranApart(logger)).toHaveLength(1);
      expect(ranApart(logger)[0].data?.pid).not.toBe(process.pid);
      expect(logger.lines.find((l) => l.message === "running a big pass in a process of its own")?.data).toMatchObject({ files: 21 });
      expect((await engine.search("settleLedger7", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/ledger7.ts");

      writeFileSync(join(root, "src/ledger3.ts"), tsFunction("reconcileQuartz", "reconciles a quartz ledger"));
      // (a pass may come first for the workspace's own folder, which the child wrote into: it finds nothing)
      const edit = await until("the edit's pass", () => passes.slice(1).find((p) => p.filesIndexed > 0));
      expect(edit).toMatchObject({ filesIndexed: 1 });
      expect(ranApart(logger)).toHaveLength(1); // no second child
      expect((await engine.search("reconcileQuartz", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/ledger3.ts");
    } finally {
      await watcher.close();
    }
  }, 90_000);

  it("runs under OpenCode's own binary, which runs the CLI as Bun", async () => {
    const root = workspace({ "src/ledger.ts": tsFunction("settleLedger", "settles a ledger") });
    const logger = recordingLogger();
    const apart = passesApart(root, { runtime: { command: OPENCODE_BIN, env: { BUN_BE_BUN: "1" } } });
    const summary = await apart!.run({ force: false }, logger)!.done;
    expect(summary).toMatchObject({ filesIndexed: 2 });
    // The watcher's paths reach the child on its stdin.
    writeFileSync(join(root, "src/invoice.ts"), tsFunction("payInvoice", "pays an invoice"));
    expect(await apart!.run({ force: false, onlyPaths: ["src/invoice.ts"] }, logger)!.done).toMatchObject({ filesScanned: 1, filesIndexed: 1 });
    const engine = await openTracked(root, logger);
    expect((await engine.search("settleLedger", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/ledger.ts");
    expect((await engine.search("payInvoice", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/invoice.ts");
  }, 120_000);

  it("a watcher's pass over changed folders runs apart over those folders alone, not the whole workspace", async () => {
    const others = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`lib/tally${i}.ts`, tsFunction(`tally${i}`, "tallies")]));
    const root = workspace({ ...ledgerFiles(), ...others });
    const logger = recordingLogger();
    const engine = await openTracked(root, logger);
    expect((await engine.index()).filesIndexed).toBe(27);
    const passes: IndexSummary[] = [];
    const watcher = await engine.watch({ backend: "chokidar", debounceMs: 300, passesApart: passesApart(root, { aboveBytes: 1000 }), onPass: (s) => passes.push(s) });
    try {
      for (let i = 0; i < 20; i++) writeFileSync(join(root, `src/ledger${i}.ts`), tsFunction(`payInvoice${i}`, "pays an invoice"));
      const apart = await until("the pass apart", () => passes.find((p) => p.filesIndexed > 0));
      expect(ranApart(logger)).toHaveLength(1);
      // The child's summary: src/'s 20 files looked at, not lib/'s or the config.
      expect(apart).toMatchObject({ filesScanned: 20, filesIndexed: 20 });
      expect((await engine.search("payInvoice12", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/ledger12.ts");
    } finally {
      await watcher.close();
    }
  }, 90_000);

  it("that fails: the pass runs here after all, and the log says why", async () => {
    const root = workspace({ ...ledgerFiles(), "broken-cli.mjs": "process.stderr.write('the pass broke\\n'); process.exit(3);\n" });
    const logger = recordingLogger();
    const engine = await openTracked(root, logger);
    const passes: IndexSummary[] = [];
    const watcher = await engine.watch({ backend: "chokidar", debounceMs: 100, catchUp: true, passesApart: passesApart(root, { aboveBytes: 1000, cli: join(root, "broken-cli.mjs") }), onPass: (s) => passes.push(s) });
    try {
      await until("the catch-up pass", () => passes.length >= 1);
      expect(passes[0]).toMatchObject({ filesIndexed: 22 });
      const failed = logger.lines.find((l) => l.message === "a pass in a process of its own failed; indexing here");
      expect(failed?.data).toMatchObject({ code: 3, stderr: "the pass broke" });
      expect((await engine.search("settleLedger4", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/ledger4.ts");
    } finally {
      await watcher.close();
    }
  }, 90_000);

  it("closing the watcher ends a pass running apart", async () => {
    const root = workspace({ ...ledgerFiles(), "slow-cli.cjs": `require("node:fs").writeFileSync("child.pid", String(process.pid)); setTimeout(() => {}, 600000);\n` });
    const engine = await openTracked(root, recordingLogger());
    const watcher = await engine.watch({ backend: "chokidar", debounceMs: 100, catchUp: true, passesApart: passesApart(root, { aboveBytes: 1000, cli: join(root, "slow-cli.cjs") }) });
    const pid = Number(await until("the child", () => existsSync(join(root, "child.pid")) && readFileSync(join(root, "child.pid"), "utf8")));
    expect(alive(pid)).toBe(true);
    await watcher.close();
    await until("the child to end", () => !alive(pid), 10_000);
    expect(existsSync(manifestPath(engine.stateDir))).toBe(false); // nothing committed, nothing indexed here
  }, 60_000);

  it("a pass asked to stay small stops before changing anything, a rebuild too", async () => {
    const root = workspace(ledgerFiles());
    const engine = await openTracked(root, recordingLogger());
    await engine.index();
    const before = readManifestHeader(engine.stateDir);
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `src/ledger${i}.ts`), tsFunction(`payInvoice${i}`, "pays an invoice"));
    const tooBig = await engine.index({ apartAboveBytes: 1000 }).catch((e: unknown) => e);
    expect(tooBig).toBeInstanceOf(PassTooBigError);
    expect(tooBig).toMatchObject({ files: 20 });
    await expect(engine.index({ force: true, apartAboveBytes: 1000 })).rejects.toBeInstanceOf(PassTooBigError);
    const after = readManifestHeader(engine.stateDir);
    expect(after.status === "ok" && before.status === "ok" && after.header.generation).toBe(before.status === "ok" && before.header.generation);
    expect((await engine.search("settleLedger5", { mode: "keyword", topK: 3 }))[0]?.chunk.filePath).toBe("src/ledger5.ts");
    expect(await engine.search("payInvoice5", { mode: "keyword", topK: 3 })).toEqual([]);
    // Under the limit it runs.
    expect((await engine.index({ apartAboveBytes: 100_000 })).filesIndexed).toBe(20);
  }, 60_000);

  it("a pass asked to stay small whose commit would rewrite the table stops too; a pass without the limit rewrites it", async () => {
    // The bundled model: a keyword-only index keeps no table.
    const root = tracked.workspace({ "opencode-rag.json": JSON.stringify({ logging: { logFilePath: "" } }), "src/ledger.ts": tsFunction("settleLedger", "settles a ledger") });
    const engine = await openTracked(root, recordingLogger());
    await engine.index();
    let stopped: unknown = null;
    let passes = 0;
    // Each pass over a new file adds a small fragment to the table; compaction rewrites them once 24 pile up.
    for (let i = 0; i < 30 && !stopped; i++) {
      writeFileSync(join(root, `src/entry${i}.ts`), tsFunction(`postEntry${i}`, "posts an entry"));
      stopped = await engine.index({ onlyPaths: [`src/entry${i}.ts`], apartAboveBytes: 1_000_000 }).then(
        () => void passes++,
        (e: unknown) => e,
      );
    }
    expect(stopped).toBeInstanceOf(PassTooBigError);
    expect(stopped).toMatchObject({ reason: "table rewrite", files: 1 });
    expect(passes).toBeGreaterThan(15);
    // The stopped pass changed nothing.
    expect((await engine.search(`postEntry${passes}`, { mode: "keyword", topK: 50 })).map((r) => r.chunk.filePath)).not.toContain(`src/entry${passes}.ts`);
    expect((await engine.index({ onlyPaths: [`src/entry${passes}.ts`] })).filesIndexed).toBe(1);
    // Rewritten: the next small pass has room again.
    writeFileSync(join(root, "src/last.ts"), tsFunction("postLastEntry", "posts an entry"));
    expect((await engine.index({ onlyPaths: ["src/last.ts"], apartAboveBytes: 1_000_000 })).filesIndexed).toBe(1);
  }, 60_000);

  it("is not offered where the package's CLI is not there", () => {
    expect(passesApart(repoRoot, { cli: null })).toBeNull();
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
