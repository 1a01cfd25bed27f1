// `opencode-rag mcp` end to end: the built CLI spawned over stdio and driven by the MCP SDK's
// own Client on a small keyword-only workspace (the server's background indexer builds the
// index), plus a raw spawn that checks stdout carries JSON-RPC messages and nothing else.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { guidanceOptions, systemGuidance } from "../../opencode-plugin/guidance.js";
import { createRagHooks } from "../../opencode-plugin/server.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";
import { heavyFileList, heavyUsageFiles, HEAVY_SYMBOL } from "../fixtures/heavy-usages.js";
import { makeWorkspace, writeTree } from "../plugin/helpers.js";

const cli = join(repoRoot, "dist", "cli.js");
let work: string;
let client: Client;
let stderr = "";

const FILES: Record<string, string> = {
  "opencode-rag.json": JSON.stringify({ embedding: { provider: "none" } }),
  "src/config.ts": "export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n\nexport class ConfigStore {\n  load(path: string) {\n    return parseConfig(path);\n  }\n}\n",
  "src/main.ts": 'import { parseConfig } from "./config";\n\nexport const settings = parseConfig("{}");\n',
  "README.md": "# Demo\n\nExpired sessions are purged by the session sweeper.\n",
  ...heavyUsageFiles("heavy/"),
};

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as CallResult;
  return { text: r.content.map((c) => c.text ?? "").join(""), isError: r.isError === true };
}

beforeAll(async () => {
  // Built only when missing (npm test builds first): a rebuild here would rewrite the bundles
  // while other test files import them.
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-mcp-"));
  writeTree(work, FILES);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--root", work],
    env: { ...(process.env as Record<string, string>), LANCEDB_LOG: "error" },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: "opencode-rag-test", version: "1.0.0" });
  await client.connect(transport);
  // The background indexer runs the first pass: wait until it has indexed the workspace.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = await call("index_status", {});
    if (/chunks: [1-9]/.test(s.text) && !/^indexing:/m.test(s.text)) break;
    if (Date.now() > deadline) throw new Error(`index never filled:\n${s.text}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 120_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("opencode-rag mcp", () => {
  it("lists the shared tools with their argument limits, and the plugin's guidance as instructions", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_semantic", "get_file_skeleton", "find_usages", "describe_image", "add_quirk", "recall_quirks", "index_status"]);
    const search = tools.find((t) => t.name === "search_semantic")!;
    expect(search.description).toMatch(/^Semantic \+ keyword search/);
    const props = search.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(search.inputSchema.required).toEqual(["query"]);
    expect(props.query).toMatchObject({ type: "string", minLength: 1, maxLength: 1000 });
    expect(props.topK).toMatchObject({ type: "integer", minimum: 1, maximum: 25 });
    expect(props.pathHints).toMatchObject({ type: "array", maxItems: 10 });
    const usages = tools.find((t) => t.name === "find_usages")!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(usages.symbolName.pattern).toBeDefined();
    expect(usages.file).toMatchObject({ type: "string" });
    expect(usages.offset).toMatchObject({ type: "integer", minimum: 0 });
    expect(client.getInstructions()).toBe(systemGuidance(guidanceOptions(DEFAULT_CONFIG)));
    expect(client.getServerVersion()?.name).toBe("opencode-rag");
  });

  it("answers search_semantic from the index it keeps", async () => {
    const r = await call("search_semantic", { query: "parseConfig", topK: 5 });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^## search_semantic: "parseConfig" — \d+ result\(s\)/);
    expect(r.text).toContain("keyword-only search");
    // parseConfig shares a chunk with the class after it (packed), and the answer is named by it.
    expect(r.text).toMatch(/### 1\. src\/config\.ts:1-9 · typescript · function `parseConfig`/);
  });

  it("answers get_file_skeleton, find_usages and describe_image", async () => {
    const skeleton = await call("get_file_skeleton", { filePath: "src/config.ts" });
    expect(skeleton.text).toMatch(/^## Skeleton — src\/config\.ts \(typescript, 9 lines\)/);
    expect(skeleton.text).toContain("ƒ function parseConfig  L1-L3");
    expect(skeleton.text).toContain("□ class ConfigStore  L5-L9");
    const usages = await call("find_usages", { symbolName: "parseConfig" });
    expect(usages.isError).toBe(false);
    expect(usages.text).toContain("src/main.ts");
    expect(usages.text).toContain("return parseConfig(path);");
    const image = await call("describe_image", { filePath: "docs/logo.png" });
    expect(image.text).toContain("No stored description for `docs/logo.png`");
    const outside = await call("get_file_skeleton", { filePath: "../../etc/passwd" });
    expect(outside.text).toContain("is outside the workspace");
  });

  it("lists every file that uses a symbol with its count, spreads the uses across files, and pages with offset and file", async () => {
    const first = await call("find_usages", { symbolName: HEAVY_SYMBOL, pathHint: "heavy/" });
    expect(first.isError).toBe(false);
    expect(first.text).toContain("## Usages of `recordHit` — 96 reference(s) in 4 file(s) (definition excluded)");
    expect(first.text).toContain(["Files, importers first, tests last:", ...heavyFileList("heavy/")].join("\n"));
    expect(first.text).toContain("Uses 1-30 of 96, taken in turn from each file:");
    for (const f of ["metrics", "routes"]) expect(first.text).toContain(`### heavy/src/server/${f}.ts (typescript)`);
    expect(first.text).toContain("### heavy/test/routes.test.ts (typescript)");
    expect(first.text).toContain('66 more uses in 1 file: call find_usages again with the same arguments and offset=30 for the next ones, or with file="heavy/src/analytics/aggregate.ts"');
    const rest = await call("find_usages", { symbolName: HEAVY_SYMBOL, pathHint: "heavy/", offset: 30, topK: 100 });
    expect(rest.text).toContain("Uses 31-96 of 96");
    expect(rest.text).not.toMatch(/more uses? in/);
    // One file's uses do not depend on the index: the plugin gives the same text.
    const args = { symbolName: HEAVY_SYMBOL, file: "heavy/src/analytics/aggregate.ts", offset: 60 };
    const one = await call("find_usages", args);
    expect(one.text).toContain("Uses 61-90 of 90:");
    const { ws } = makeWorkspace(work);
    try {
      expect(one.text).toBe(await createRagHooks(ws).tool!.find_usages.execute(args as never, { sessionID: "s" } as never));
    } finally {
      await ws.close();
    }
  });

  it("remembers and recalls quirks", async () => {
    const added = await call("add_quirk", { content: "The session sweeper must run before the config loader, or stale sessions survive a restart.", tags: ["sessions"] });
    expect(added.isError).toBe(false);
    expect(added.text).toMatch(/^Remembered /);
    const recalled = await call("recall_quirks", { query: "session sweeper config loader" });
    expect(recalled.text).toMatch(/^Quirks for "session sweeper config loader":/);
    expect(recalled.text).toContain("session sweeper must run before the config loader");
  });

  it("reports the index status", async () => {
    const s = await call("index_status", {});
    expect(s.text).toMatch(/^## Index status — /);
    expect(s.text).toMatch(/search: keyword-only/);
  });

  it("rejects bad arguments with the plugin's error line, flagged as an error", async () => {
    const bad = await call("find_usages", { symbolName: "obj.method()" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toBe(
      "Invalid arguments for find_usages: symbolName must be one identifier, e.g. parseConfig or magit-tag-create (no dots, spaces or parentheses). Fix them and call find_usages again.",
    );
    const topK = await call("search_semantic", { query: "x", topK: 99 });
    expect(topK.isError).toBe(true);
    expect(topK.text).toBe("Invalid arguments for search_semantic: topK must be a whole number from 1 to 25. Fix them and call search_semantic again.");
    const empty = await call("search_semantic", { query: "" });
    expect(empty.isError).toBe(true);
    expect(empty.text).toBe("Invalid arguments for search_semantic: query is empty: describe the code you need, e.g. 'where expired sessions are purged'. Fix them and call search_semantic again.");
    const noSymbol = await call("find_usages", { symbolName: "" });
    expect(noSymbol.text).toBe("Invalid arguments for find_usages: symbolName is empty: give the identifier to find, e.g. parseConfig. Fix them and call find_usages again.");
    const unknown = await call("no_such_tool", {});
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("Unknown tool no_such_tool");
  });

  it("gives the same text as the OpenCode plugin for the same call (one definition)", async () => {
    const { ws } = makeWorkspace(work);
    const hooks = createRagHooks(ws);
    const ctx = { sessionID: "s" } as never;
    try {
      for (const [name, args] of [
        ["get_file_skeleton", { filePath: "src/config.ts" }],
        ["find_usages", { symbolName: "obj.method()" }],
        ["search_semantic", { query: "x", topK: 99 }],
      ] as const) {
        const viaPlugin = await hooks.tool![name].execute(args as never, ctx);
        expect((await call(name, args)).text).toBe(viaPlugin);
      }
    } finally {
      await ws.close();
    }
  });

  it("logs to stderr", () => {
    expect(stderr).toContain("mcp server ready");
  });
});

describe("opencode-rag mcp stdout", () => {
  it("carries JSON-RPC messages only, and the server exits when stdin closes", async () => {
    const root = mkdtempSync(join(tmpdir(), "rag-mcp-raw-"));
    writeTree(root, FILES);
    try {
      const child = spawn(process.execPath, [cli, "mcp", "--root", root], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, LANCEDB_LOG: "error" } });
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      const send = (m: object) => child.stdin.write(JSON.stringify(m) + "\n");
      send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_semantic", arguments: { query: "session sweeper" } } });
      send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "get_file_skeleton", arguments: { filePath: "src/config.ts" } } });
      // Wait for the four answers, then hang up.
      const deadline = Date.now() + 30_000;
      while ((out.match(/\n/g) ?? []).length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.stdin.end();
      const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r("still running"), 20_000))]);
      if (code === "still running") child.kill("SIGKILL");
      expect(code, err).toBe(0);
      const lines = out.split("\n").filter((l) => l !== "");
      expect(lines.length).toBe(4);
      for (const line of lines) {
        const msg = JSON.parse(line) as { jsonrpc: string; id: number };
        expect(msg.jsonrpc).toBe("2.0");
      }
      expect(lines.map((l) => (JSON.parse(l) as { id: number }).id).sort()).toEqual([1, 2, 3, 4]);
      expect(err).toContain("mcp server ready");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
