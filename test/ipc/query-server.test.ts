// A watching engine answers other processes' searches over a private local socket: the same
// results as its own search, only for callers with the same workspace and settings, and the
// socket goes away with the watcher. The CLI's `query` uses it, and searches itself otherwise.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config/load.js";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { connectQueryServer } from "../../core/ipc/query-client.js";
import { startQueryServer } from "../../core/ipc/query-server.js";
import { queryFingerprint, querySocketPath } from "../../core/ipc/query-socket.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";
import { makeWorkspace, trackWorkspaces, tsFunction } from "../indexing/helpers.js";

const tracked = trackWorkspaces();
const silent = { info: () => undefined, error: () => undefined, debug: () => undefined };

/** A keyword-only workspace with its settings in a config file, as a user has them. */
async function watchedWorkspace(serveQueries = true): Promise<{ root: string; engine: Engine; fingerprint: string }> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 4; i++) files[`src/f${i}.ts`] = tsFunction(`socketAnsweredFunction${i}`, `computes part ${i}`);
  files["opencode-rag.json"] = JSON.stringify({
    embedding: { provider: "none" },
    logging: { logFilePath: "" },
    autoIndex: { serveQueries, debounceMs: 50 },
  });
  const root = makeWorkspace(files, "rag-ipc-");
  tracked.roots.push(root);
  const engine = await openEngine({ root, logger: silent });
  tracked.engines.push(engine);
  await engine.index();
  await engine.watch();
  const loaded = loadConfig({ root });
  return { root, engine, fingerprint: queryFingerprint(loaded.root, loaded.storeUri, loaded.config) };
}

describe("query server", () => {
  it("answers with the engine's own results over a socket only this user can open", async () => {
    const { engine, fingerprint } = await watchedWorkspace();
    const path = querySocketPath(engine.stateDir);
    if (process.platform !== "win32") expect(statSync(path).mode & 0o777).toBe(0o600);
    const client = await connectQueryServer(engine.stateDir, fingerprint);
    expect(client).not.toBeNull();
    try {
      const remote = await client!.ask("socketAnsweredFunction2", { topK: 3 });
      const local = await engine.search("socketAnsweredFunction2", { topK: 3 });
      expect(remote?.results.map((r) => r.chunk.filePath)).toEqual(local.map((r) => r.chunk.filePath));
      expect(remote?.results[0].chunk.filePath).toBe("src/f2.ts");
      expect(remote?.results[0].chunk.content).toContain("socketAnsweredFunction2");
      expect(remote?.keywordOnlyReason).toMatch(/none|keyword/i);
      // A second question on the same connection.
      expect((await client!.ask("socketAnsweredFunction0"))?.results[0].chunk.filePath).toBe("src/f0.ts");
    } finally {
      client!.close();
    }
  });

  it("does not answer a caller with other settings (it searches itself instead)", async () => {
    const { engine, root } = await watchedWorkspace();
    const other = loadConfig({ root });
    other.config.retrieval.topK = other.config.retrieval.topK + 1;
    const client = await connectQueryServer(engine.stateDir, queryFingerprint(root, other.storeUri, other.config));
    expect(client).not.toBeNull();
    expect(await client!.ask("socketAnsweredFunction1")).toBeNull();
    client!.close();
  });

  it("goes away with the watcher, and is not started when serveQueries is off", async () => {
    const { engine, fingerprint } = await watchedWorkspace();
    const path = querySocketPath(engine.stateDir);
    await engine.close();
    if (process.platform !== "win32") expect(existsSync(path)).toBe(false);
    expect(await connectQueryServer(engine.stateDir, fingerprint)).toBeNull();

    const off = await watchedWorkspace(false);
    expect(await connectQueryServer(off.engine.stateDir, off.fingerprint)).toBeNull();
  });

  it("replaces a socket file left by a process that died, and leaves a live one to its owner", async () => {
    const { engine, fingerprint } = await watchedWorkspace();
    // A second engine watching the same workspace does not take the socket over.
    const second = await openEngine({ root: engine.root, logger: silent });
    tracked.engines.push(second);
    await second.watch();
    await second.close();
    const client = await connectQueryServer(engine.stateDir, fingerprint);
    expect((await client?.ask("socketAnsweredFunction3"))?.results[0].chunk.filePath).toBe("src/f3.ts");
    client?.close();
    await engine.close();
    if (process.platform === "win32") return;
    // Left behind: a file where the socket was.
    const path = querySocketPath(engine.stateDir);
    writeFileSync(path, "");
    const server = await startQueryServer({
      stateDir: engine.stateDir,
      fingerprint: () => fingerprint,
      search: async () => [],
      keywordOnlyReason: async () => null,
      logger: silent,
    });
    expect(server).not.toBeNull();
    expect(statSync(path).isSocket()).toBe(true);
    await server!.close();
  });
});

describe("opencode-rag query with a watching engine", () => {
  beforeAll(() => ensureBuilt());

  function cliQuery(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [join(repoRoot, "dist", "cli.js"), "query", ...args], { cwd, env: { ...process.env, LANCEDB_LOG: "error" } }, (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it("is answered by the running engine, and searches itself when the settings differ", async () => {
    const { root, engine, fingerprint } = await watchedWorkspace();
    // Stand in for the engine's server with one whose answers are recognisable.
    await engine.close();
    const marked = { chunk: { filePath: "answered/by-server.ts", startLine: 1, endLine: 1, language: "typescript", kind: "function", symbol: "x", context: "", content: "x", id: "m", contentHash: "m", description: "" }, score: 0.5 };
    const server = await startQueryServer({
      stateDir: engine.stateDir,
      fingerprint: () => fingerprint,
      search: async () => [marked],
      keywordOnlyReason: async () => null,
      logger: silent,
    });
    try {
      const viaServer = await cliQuery(root, "socketAnsweredFunction1", "--json");
      expect(viaServer.code, viaServer.stderr).toBe(0);
      expect(JSON.parse(viaServer.stdout).map((r: { filePath: string }) => r.filePath)).toEqual(["answered/by-server.ts"]);
      // An empty query is not sent to the server (which would answer it): the CLI says so.
      const empty = await cliQuery(root, " ");
      expect(empty.code).toBe(2);
      expect(empty.stdout).toBe("");
      expect(empty.stderr).toMatch(/^opencode-rag query: the query text is empty: /);

      // Other settings (--config): the CLI searches the index itself.
      const otherConfig = join(root, "other.json");
      writeFileSync(otherConfig, JSON.stringify({ embedding: { provider: "none" }, logging: { logFilePath: "" }, retrieval: { topK: 3 } }));
      const local = await cliQuery(root, "socketAnsweredFunction1", "--json", "--config", otherConfig);
      expect(local.code, local.stderr).toBe(0);
      expect(JSON.parse(local.stdout)[0].filePath).toBe("src/f1.ts");

      // --debug always searches in its own process, where its logs are.
      const debug = await cliQuery(root, "socketAnsweredFunction1", "--json", "--debug");
      expect(JSON.parse(debug.stdout)[0].filePath).toBe("src/f1.ts");
    } finally {
      await server?.close();
    }
    // With no server the CLI answers by itself.
    const alone = await cliQuery(root, "socketAnsweredFunction1", "--json");
    expect(JSON.parse(alone.stdout)[0].filePath).toBe("src/f1.ts");
  });

  it("answers a served query from the executable alone, without loading the rest of the CLI", async () => {
    const { root, engine } = await watchedWorkspace();
    // The executable copied without the full CLI beside it (inside the repository, so its
    // dependencies still resolve): only a query the running engine answers can succeed.
    mkdirSync(join(repoRoot, "test", ".cache"), { recursive: true });
    const lone = mkdtempSync(join(repoRoot, "test", ".cache", "lone-cli-"));
    try {
      copyFileSync(join(repoRoot, "dist", "cli.js"), join(lone, "cli.js"));
      const run = (...args: string[]) =>
        new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
          execFile(process.execPath, [join(lone, "cli.js"), ...args], { cwd: root, env: { ...process.env, LANCEDB_LOG: "error" } }, (err, stdout, stderr) =>
            resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
          ),
        );
      const served = await run("query", "socketAnsweredFunction2", "--json");
      expect(served.code, served.stderr).toBe(0);
      expect(JSON.parse(served.stdout)[0].filePath).toBe("src/f2.ts");
      const human = await run("--config", join(root, "opencode-rag.json"), "query", "socketAnsweredFunction2");
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toMatch(/^src\/f2\.ts:\d+-\d+/);

      // Anything else needs the full CLI, which is not there.
      const status = await run("status");
      expect(status.code).not.toBe(0);
      expect(status.stderr).toContain("cli-main.js");
      await engine.close();
      const unserved = await run("query", "socketAnsweredFunction2", "--json");
      expect(unserved.stderr).toContain("cli-main.js");
    } finally {
      rmSync(lone, { recursive: true, force: true });
    }
  });
});
