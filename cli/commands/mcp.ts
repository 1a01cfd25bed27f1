// `opencode-rag mcp [--root DIR]`: an MCP server over stdio with the same tools as the OpenCode
// plugin, for any MCP client. Runs until the client closes the connection.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "../command.js";
import { UsageError } from "../command.js";

export const mcpCommand: Command = {
  name: "mcp",
  summary: "serve the search tools to an MCP client over stdio (Claude Code, Cursor, Codex, OpenCode)",
  help: `Usage: opencode-rag mcp [--root DIR]

Speaks the Model Context Protocol on stdin/stdout; an MCP client starts it (see
\`opencode-rag init --mcp claude|cursor|codex|opencode\`). Keeps the index current while it runs.
Logs go to the log file and stderr.

  --root DIR      the workspace to serve (default: the current directory)`,
  options: { root: { type: "string" } },
  async run(ctx) {
    if (ctx.configPath) throw new UsageError("--config is not used by mcp: the server reads the workspace's own opencode-rag.json / .opencode/rag.json");
    const root = resolve((ctx.values.root as string | undefined) ?? process.cwd());
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root} is not a folder`);
    // Loaded on demand: the server pulls in the MCP SDK and the plugin's tool code.
    const [{ serveMcp }, { coreDeps }] = await Promise.all([import("../../mcp/server.js"), import("../../opencode-plugin/index.js")]);
    await serveMcp({ root, deps: coreDeps });
    // The client is gone: a native handle left open (a model session, a store) must not keep
    // an orphaned server alive. Unref'd, so a clean exit does not wait for it.
    setTimeout(() => process.exit(0), 3000).unref();
    return 0;
  },
};
