// `opencode-rag init --mcp CLIENT`: each client's config entry, written into the project (or
// printed for Codex), idempotent, with the user's other servers and comments kept.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { afterAll, describe, expect, it } from "vitest";
import { runInitMcp } from "../../cli/commands/init-mcp.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
function project(): string {
  const r = mkdtempSync(join(tmpdir(), "rag-init-mcp-"));
  roots.push(r);
  return r;
}
const json = (root: string, rel: string) => parseJsonc(readFileSync(join(root, rel), "utf8")) as Record<string, Record<string, unknown>>;

describe("init --mcp", () => {
  it("claude: .mcp.json mcpServers entry, idempotent", () => {
    const root = project();
    expect(runInitMcp(root, "claude").file).toEqual({ path: ".mcp.json", action: "created" });
    expect(json(root, ".mcp.json")).toEqual({ mcpServers: { "opencode-rag": { type: "stdio", command: "npx", args: ["opencode-rag", "mcp"], env: {} } } });
    expect(runInitMcp(root, "claude").file).toEqual({ path: ".mcp.json", action: "unchanged" });
  });

  it("cursor: .cursor/mcp.json, keeping the user's other servers and comments", () => {
    const root = project();
    mkdirSync(join(root, ".cursor"));
    writeFileSync(join(root, ".cursor", "mcp.json"), '{\n  // mine\n  "mcpServers": {\n    "other": { "command": "other-server" }\n  }\n}\n');
    expect(runInitMcp(root, "cursor").file).toEqual({ path: ".cursor/mcp.json", action: "updated" });
    const text = readFileSync(join(root, ".cursor", "mcp.json"), "utf8");
    expect(text).toContain("// mine");
    const cfg = json(root, ".cursor/mcp.json");
    expect(cfg.mcpServers.other).toEqual({ command: "other-server" });
    expect(cfg.mcpServers["opencode-rag"]).toEqual({ command: "npx", args: ["opencode-rag", "mcp", "--root", "${workspaceFolder}"] });
  });

  it("opencode: the mcp section of opencode.json, other keys kept", () => {
    const root = project();
    writeFileSync(join(root, "opencode.json"), JSON.stringify({ model: "x/y", mcp: { other: { type: "remote", url: "http://127.0.0.1:1" } } }, null, 2));
    runInitMcp(root, "opencode");
    const cfg = json(root, "opencode.json");
    expect(cfg.model).toBe("x/y");
    expect(cfg.mcp["opencode-rag"]).toEqual({ type: "local", command: ["npx", "opencode-rag", "mcp"] });
    expect(cfg.mcp.other).toBeDefined();
    const fresh = project();
    expect(runInitMcp(fresh, "opencode").file?.action).toBe("created");
    expect(json(fresh, "opencode.json")).toEqual({ $schema: "https://opencode.ai/config.json", mcp: { "opencode-rag": { type: "local", command: ["npx", "opencode-rag", "mcp"] } } });
  });

  it("codex: prints the config.toml entry for this workspace and writes nothing", () => {
    const root = project();
    const r = runInitMcp(root, "codex");
    expect(r.file).toBeUndefined();
    expect(r.snippet).toBe(`[mcp_servers.opencode-rag]\ncommand = "npx"\nargs = ["opencode-rag", "mcp", "--root", ${JSON.stringify(root)}]\n`);
    expect(r.next).toContain("~/.codex/config.toml");
  });

  it("refuses an unknown client and a config that is not JSON", () => {
    const root = project();
    expect(() => runInitMcp(root, "vim")).toThrow(/--mcp takes one of claude, cursor, codex, opencode/);
    writeFileSync(join(root, ".mcp.json"), "{ not json");
    expect(() => runInitMcp(root, "claude")).toThrow(/not valid JSON/);
  });

  it("runs from the CLI", () => {
    const cli = join(repoRoot, "dist", "cli.js");
    ensureBuilt();
    const root = project();
    const out = execFileSync(process.execPath, [cli, "init", "--mcp", "codex", root], { encoding: "utf8" });
    expect(out).toContain("[mcp_servers.opencode-rag]");
    expect(execFileSync(process.execPath, [cli, "init", "--mcp", "claude", root], { encoding: "utf8" })).toMatch(/^created\s+\.mcp\.json/);
    expect(existsSync(join(root, ".mcp.json"))).toBe(true);
    expect(existsSync(join(root, ".opencode"))).toBe(false);
  });
});
