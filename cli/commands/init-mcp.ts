// `opencode-rag init --mcp CLIENT`: registers `opencode-rag mcp` with an MCP client. Project
// config files are edited in place (other servers, keys and comments kept); Codex keeps its
// config in ~/.codex/config.toml, outside the project, so its entry is printed, not written.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { UsageError } from "../command.js";
import { parseJsoncObject, readIfExists, writeIfChanged, type InitAction } from "./init-files.js";

export const MCP_CLIENTS = ["claude", "cursor", "codex", "opencode"] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** The server's name in every client's config. */
export const MCP_ENTRY_NAME = "opencode-rag";

export interface InitMcpResult {
  /** The file written (workspace-relative), when the client keeps its config in the project. */
  file?: { path: string; action: InitAction };
  /** Text to paste by hand (Codex), or null. */
  snippet: string | null;
  /** What the user does next. */
  next: string;
}

/** Claude Code starts project servers in the project folder, so no --root is needed. */
export const CLAUDE_ENTRY = { type: "stdio", command: "npx", args: ["opencode-rag", "mcp"], env: {} };
/** Cursor does not promise the working folder; ${workspaceFolder} is expanded by Cursor. */
export const CURSOR_ENTRY = { command: "npx", args: ["opencode-rag", "mcp", "--root", "${workspaceFolder}"] };
/** OpenCode starts local servers in the project folder. */
export const OPENCODE_ENTRY = { type: "local", command: ["npx", "opencode-rag", "mcp"] };

/** ~/.codex/config.toml is shared by every project: the entry names this workspace by path. */
export function codexSnippet(root: string): string {
  return `[mcp_servers.${MCP_ENTRY_NAME}]
command = "npx"
args = ["opencode-rag", "mcp", "--root", ${JSON.stringify(resolve(root))}]
`;
}

/** `text` (JSON/JSONC or empty) with `path` set to `value`; everything else kept. */
export function withJsonEntry(text: string | null, path: string[], value: unknown, file: string, seed: Record<string, unknown> = {}): string {
  const base = text && text.trim() ? text : JSON.stringify(seed, null, 2) + "\n";
  if (!parseJsoncObject(base)) {
    throw new UsageError(`${file}: not valid JSON; fix it (or move it away) and re-run \`opencode-rag init --mcp\``);
  }
  const edits = modify(base, path, value, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  return applyEdits(base, edits);
}

function writeConfig(root: string, rel: string, path: string[], value: unknown, seed?: Record<string, unknown>): { path: string; action: InitAction } {
  const abs = join(root, rel);
  return { path: rel, action: writeIfChanged(abs, withJsonEntry(readIfExists(abs), path, value, abs, seed)) };
}

export function runInitMcp(rootDir: string, client: string): InitMcpResult {
  const root = resolve(rootDir);
  if (!existsSync(root)) throw new UsageError(`${root} does not exist; run init inside your project`);
  switch (client) {
    case "claude":
      return {
        file: writeConfig(root, ".mcp.json", ["mcpServers", MCP_ENTRY_NAME], CLAUDE_ENTRY),
        snippet: null,
        next: "Claude Code asks to approve the project's MCP servers on its next start; `claude mcp list` shows opencode-rag.",
      };
    case "cursor":
      return {
        file: writeConfig(root, ".cursor/mcp.json", ["mcpServers", MCP_ENTRY_NAME], CURSOR_ENTRY),
        snippet: null,
        next: "Enable opencode-rag under Cursor Settings > MCP (Tools & MCP).",
      };
    case "opencode": {
      // An existing opencode.jsonc is OpenCode's config too: edit that one rather than add a second file.
      const rel = !existsSync(join(root, "opencode.json")) && existsSync(join(root, "opencode.jsonc")) ? "opencode.jsonc" : "opencode.json";
      return {
        file: writeConfig(root, rel, ["mcp", MCP_ENTRY_NAME], OPENCODE_ENTRY, { $schema: "https://opencode.ai/config.json" }),
        snippet: null,
        next: "OpenCode starts the server on its next start. Use either this MCP server or the opencode-rag plugin (`opencode-rag init`), not both: the tools would be offered twice.",
      };
    }
    case "codex":
      return {
        snippet: codexSnippet(root),
        next: "Codex keeps MCP servers in ~/.codex/config.toml (outside this project): add the lines above to it.",
      };
    default:
      throw new UsageError(`--mcp takes one of ${MCP_CLIENTS.join(", ")} (got "${client}")`);
  }
}
