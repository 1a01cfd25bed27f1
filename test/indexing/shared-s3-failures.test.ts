// A shared index whose bucket fails on cue (s3rver behind a proxy on 127.0.0.1 that answers
// chosen requests with an S3 error): refused credentials (403), a lost lock (412 on the
// manifest's conditional write) and an unreachable endpoint each reach the engine, the CLI and
// the tools (what the plugin and MCP answer) as one plain line; the committed index answers
// again once the bucket does, and nothing the failed pass did reached it.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { PlainError } from "../../core/errors/plain-error.js";
import { S3ObjectStore } from "../../core/objectstore/s3.js";
import { coreDeps } from "../../opencode-plugin/index.js";
import { executeTool, TOOL_DEFINITIONS } from "../../opencode-plugin/tools/definitions.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { closedPort } from "../fakes/http-fake.js";
import { startS3FaultProxy, type S3FaultProxy } from "../fakes/s3-fault-proxy.js";
import { startS3Server, type TestS3Server } from "../fakes/s3.js";
import { ensureBuilt, repoRoot } from "./dist-build.js";
import { makeWorkspace, removeWorkspace, tsFunction } from "./helpers.js";

let s3: TestS3Server;
let proxy: S3FaultProxy;
const roots: string[] = [];
const engines: Engine[] = [];

function config(uri: string, endpoint: string) {
  return {
    embedding: { provider: "none" },
    vectorStore: { path: uri, storageOptions: { ...s3.storageOptions, aws_endpoint: endpoint } },
    autoIndex: { enabled: false },
    logging: { level: "error", logFilePath: "" },
  };
}

/** A workspace on `uri` through `endpoint`; its config file says so, for the CLI and the plugin. */
async function setup(uri: string, endpoint = proxy.endpoint): Promise<{ root: string; engine: Engine }> {
  const files: Record<string, string> = { "src/tokens.ts": tsFunction("verifySessionToken", "checks a session token's signature") };
  for (let i = 0; i < 4; i++) files[`src/util/helper${i}.ts`] = tsFunction(`helperNumber${i}`, `doubles the value for caller ${i}`);
  const root = makeWorkspace(files);
  roots.push(root);
  writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(config(uri, endpoint)));
  const engine = await openEngine({ root });
  engines.push(engine);
  return { root, engine };
}

/** `opencode-rag index` in the workspace; not spawnSync: the proxy it talks to runs in this process. */
async function cliIndex(root: string): Promise<{ code: number | null; stderr: string }> {
  const cli = spawn(process.execPath, [join(repoRoot, "dist", "cli.js"), "index"], { cwd: root, env: { ...process.env, LANCEDB_LOG: "error" } });
  let stderr = "";
  cli.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => cli.on("exit", resolve));
  return { code, stderr };
}

async function searchTool(root: string): Promise<string> {
  const ws = new RagWorkspace(root, coreDeps);
  try {
    return (await executeTool(ws, TOOL_DEFINITIONS.find((d) => d.name === "search_semantic")!, { query: "verifySessionToken" })).text;
  } finally {
    await ws.close();
  }
}

async function answers(engine: Engine): Promise<string[]> {
  return (await engine.search("verifySessionToken", { mode: "keyword", topK: 3 })).map((r) => r.chunk.filePath);
}

async function manifestEtag(uri: string): Promise<string | null> {
  const store = new S3ObjectStore(uri, s3.storageOptions);
  try {
    const got = await store.get("rag-state/manifest.json");
    return got && got !== "unchanged" ? got.etag : null;
  } finally {
    store.close();
  }
}

const failure = (e: unknown) => e as PlainError;
const settle = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

beforeAll(async () => {
  ensureBuilt();
  s3 = await startS3Server("faulty");
  proxy = await startS3FaultProxy(s3.endpoint);
});

afterAll(async () => {
  for (const e of engines) await e.close().catch(() => undefined);
  for (const r of roots) removeWorkspace(r);
  await proxy?.close();
  await s3?.close();
});

describe("a shared index whose bucket fails", () => {
  it("refusing the credentials: one plain line from the engine, the CLI and the tools; the index answers once they are accepted again", async () => {
    const uri = "s3://faulty/creds";
    const { root, engine } = await setup(uri);
    await engine.index();
    const committed = await manifestEtag(uri);
    writeFileSync(join(root, "src/new.ts"), tsFunction("addedLater", "added while the key is refused"));

    proxy.fail = () => ({ status: 403, code: "InvalidAccessKeyId" });
    try {
      const err = await settle(engine.index());
      expect(err).toBeInstanceOf(PlainError);
      expect(failure(err).message).toBe(
        "the bucket s3://faulty/creds refused the credentials: check the access key and secret (vectorStore.storageOptions or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) and the key's access to the bucket, then run the pass again; the previous index (6 files) is still in use",
      );
      const cli = await cliIndex(root);
      expect(cli.code, cli.stderr).toBe(1);
      expect(cli.stderr).toContain("opencode-rag: the bucket s3://faulty/creds refused the credentials: check the access key");
      expect(await searchTool(root)).toMatch(/^search_semantic failed: the bucket s3:\/\/faulty\/creds refused the credentials: .*then try again; the index itself is unchanged\. Use your usual tools meanwhile\.$/);
    } finally {
      proxy.fail = null;
    }
    expect(await manifestEtag(uri)).toBe(committed);
    expect(await answers(engine)).toContain("src/tokens.ts");
  }, 60_000);

  it("losing the lock (412 on the manifest's conditional write): one plain line; the bucket keeps the committed index, which answers", async () => {
    const uri = "s3://faulty/lost";
    const { root, engine } = await setup(uri);
    await engine.index();
    const committed = await manifestEtag(uri);
    writeFileSync(join(root, "src/new.ts"), tsFunction("addedLater", "added while another writer commits"));

    proxy.fail = (method, path) => (method === "PUT" && path.endsWith("/rag-state/manifest.json") ? { status: 412, code: "PreconditionFailed" } : null);
    try {
      const err = await settle(engine.index());
      expect(err).toBeInstanceOf(PlainError);
      expect(failure(err).message).toBe(
        "another machine took over the lock of s3://faulty/lost while this pass ran (it stalled past the lock's expiry) and committed first: run the pass again; nothing of this pass was committed, and searches use the other machine's index",
      );
    } finally {
      proxy.fail = null;
    }
    expect(await manifestEtag(uri)).toBe(committed);
    expect(await answers(engine)).toContain("src/tokens.ts");
    expect((await engine.index()).filesIndexed).toBeGreaterThanOrEqual(1);
    expect(await manifestEtag(uri)).not.toBe(committed);
  }, 60_000);

  it("unreachable: one plain line from the engine, the CLI and the tools naming the endpoint", async () => {
    const uri = "s3://faulty/down";
    const { root, engine } = await setup(uri, s3.endpoint);
    await engine.index();
    await engine.close();
    const port = await closedPort();
    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(config(uri, `http://127.0.0.1:${port}`)));
    const down = await openEngine({ root });
    engines.push(down);
    const line = `the bucket s3://faulty/down cannot be reached at http://127.0.0.1:${port}: check the network and the endpoint (vectorStore.storageOptions.aws_endpoint or AWS_ENDPOINT_URL), then run the pass again; the previous index (6 files) is still in use`;
    await expect(down.index()).rejects.toThrow(line);
    const cli = await cliIndex(root);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(`opencode-rag: ${line}`);
    expect(await searchTool(root)).toContain(`search_semantic failed: the bucket s3://faulty/down cannot be reached at http://127.0.0.1:${port}`);

    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(config(uri, s3.endpoint)));
    const back = await openEngine({ root });
    engines.push(back);
    expect(await answers(back)).toContain("src/tokens.ts");
  }, 60_000);
});
