// Config values that pass the type check but would misplace the index or hang the model are
// refused with one line naming the key and the fix.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config/load.js";
import { ConfigError, validateConfig } from "../../core/config/validate.js";
import { openEngine } from "../../core/engine.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(config?: unknown): string {
  const root = mkdtempSync(join(tmpdir(), "rag-cfg-"));
  dirs.push(root);
  if (config !== undefined) writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(config));
  return root;
}

function loadError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("config validation", () => {
  it.each(["", ".", "./", "..", "/"])("refuses vectorStore.path %j (the workspace or a folder holding it)", (path) => {
    const root = workspace({ vectorStore: { path } });
    const msg = loadError(() => loadConfig({ root }));
    expect(msg).toMatch(/vectorStore\.path/);
    expect(msg.split("\n")).toHaveLength(1);
    expect(msg).toMatch(/\.opencode\/rag_db/);
  });

  it("refuses the workspace's own absolute path and its parent", () => {
    const root = workspace();
    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ vectorStore: { path: root } }));
    expect(loadError(() => loadConfig({ root }))).toMatch(/is the workspace/);
    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ vectorStore: { path: dirname(root) } }));
    expect(loadError(() => loadConfig({ root }))).toMatch(/contains the workspace/);
  });

  it("still accepts store folders inside or beside the workspace", () => {
    const root = workspace({ vectorStore: { path: "../elsewhere-db" } });
    expect(loadConfig({ root }).storeUri).toBe(join(dirname(root), "elsewhere-db"));
    const inner = workspace({ vectorStore: { path: ".cache/db" } });
    expect(loadConfig({ root: inner }).storeUri).toBe(join(inner, ".cache", "db"));
  });

  it.each([0, 1000, 2.5, -1])("refuses embedding.threads %j with the allowed range", (threads) => {
    expect(validateConfig({ embedding: { threads } }).join("\n")).toMatch(/embedding\.threads.*from 1 to 64/);
    const root = workspace({ embedding: { threads } });
    const msg = loadError(() => loadConfig({ root }));
    expect(msg).toMatch(/embedding\.threads/);
    expect(msg.split("\n")).toHaveLength(1);
  });

  it.each([0, 1.5, -0.5, "half"])("refuses indexing.maxCpuShare %j in one line naming the key and a fix", (maxCpuShare) => {
    const root = workspace({ indexing: { maxCpuShare } });
    const msg = loadError(() => loadConfig({ root }));
    expect(msg).toMatch(/indexing\.maxCpuShare/);
    if (typeof maxCpuShare === "number") expect(msg).toMatch(/above 0 and at most 1.*use 0\.5/);
    expect(msg.split("\n")).toHaveLength(1);
  });

  it("accepts a share of the cores for background passes, half by default", () => {
    expect(loadConfig({ root: workspace({}) }).config.indexing.maxCpuShare).toBe(0.5);
    expect(loadConfig({ root: workspace({ indexing: { maxCpuShare: 1 } }) }).config.indexing.maxCpuShare).toBe(1);
    expect(loadConfig({ root: workspace({ indexing: { maxCpuShare: 0.25 } }) }).config.indexing.maxCpuShare).toBe(0.25);
  });

  it("takes object-storage settings as text, and names a value that is not", () => {
    const ok = { path: "s3://team/repo", storageOptions: { aws_endpoint: "http://127.0.0.1:9000", aws_region: "us-east-1" } };
    expect(loadConfig({ root: workspace({ vectorStore: ok }) }).config.vectorStore.storageOptions).toEqual(ok.storageOptions);
    const msg = loadError(() => loadConfig({ root: workspace({ vectorStore: { path: "s3://team/repo", storageOptions: { allow_http: true } } }) }));
    expect(msg).toMatch(/"vectorStore\.storageOptions\.allow_http" must be a string .*found the boolean true; write it in quotes/);
    expect(msg.split("\n")).toHaveLength(1);
  });

  it("names a language's extra node types that are not a list of names", () => {
    const msg = loadError(() => loadConfig({ root: workspace({ chunking: { nodeTypes: { python: "match_statement" } } }) }));
    expect(msg).toMatch(/opencode-rag\.json: "chunking\.nodeTypes\.python" must be an array of strings like \["match_statement"\], found the string "match_statement"$/);
    expect(loadConfig({ root: workspace({ chunking: { nodeTypes: { python: ["match_statement"] } } }) }).config.chunking.nodeTypes).toEqual({ python: ["match_statement"] });
  });

  it("leaves a config file's \"$schema\" to editors: accepted at the top, kept out of the settings", () => {
    const root = workspace({ $schema: "./node_modules/opencode-rag/dist/config.schema.json", retrieval: { topK: 4 } });
    const { config } = loadConfig({ root });
    expect(config.retrieval.topK).toBe(4);
    expect(Object.keys(config)).not.toContain("$schema");
    expect(loadError(() => loadConfig({ root: workspace({ $schema: 1 }) }))).toMatch(/"\$schema" must be a string, the path or URL of the config's JSON Schema, found the number 1; remove it/);
    expect(loadError(() => loadConfig({ root: workspace({ retrieval: { $schema: "x" } }) }))).toMatch(/unknown key "retrieval\.\$schema"/);
  });

  it("refuses threads beyond the machine's cores but accepts the default", () => {
    const root = workspace({ embedding: { threads: 64 } });
    if (availableParallelism() < 32) expect(loadError(() => loadConfig({ root }))).toMatch(/embedding\.threads.*cores/);
    expect(loadConfig({ root: workspace({ embedding: { threads: 2 } }) }).config.embedding.threads).toBe(2);
  });

  it("says --config must be a file when given a folder", () => {
    const root = workspace();
    const msg = loadError(() => loadConfig({ root, configPath: root }));
    expect(msg).toMatch(/--config .* is a folder, not a file/);
    expect(msg).not.toMatch(/EISDIR/);
  });

  it("checks the store location and threads given as engine overrides", async () => {
    const root = workspace();
    mkdirSync(join(root, "src"));
    await expect(openEngine({ root, overrides: { vectorStore: { path: "." } } })).rejects.toThrow(/vectorStore\.path/);
    await expect(openEngine({ root, overrides: { embedding: { threads: 1000 } } })).rejects.toThrow(/embedding\.threads/);
  });
});
