// The MCP host (`opencode-rag mcp`): the shared tool definitions served over stdio to any MCP
// client (Claude Code, Cursor, Codex, OpenCode). Like the plugin it keeps one warm workspace:
// engine opened once, background indexer running, config reloaded when its files change.
// stdout carries protocol messages only; logs go to the log file and stderr.
import { Writable } from "node:stream";
import { z } from "zod";
import type { Logger } from "../core/engine-types.js";
import { teeLogger } from "../core/logging/index.js";
import type { CoreDeps } from "../opencode-plugin/deps.js";
import { guidanceOptions, systemGuidance } from "../opencode-plugin/guidance.js";
import { executeTool, offeredTools, type ToolDefinition } from "../opencode-plugin/tools/definitions.js";
import { RagWorkspace } from "../opencode-plugin/workspace.js";

export const MCP_SERVER_NAME = "opencode-rag";

/** One line per record on stderr: MCP clients show a server's stderr in their logs. */
function stderrLogger(): Logger {
  const line = (level: string, m: string, d?: Record<string, unknown>) => {
    let data = "";
    try {
      data = d ? " " + JSON.stringify(d, (_k, v: unknown) => (v instanceof Error ? v.message : v)) : "";
    } catch {
      // unserialisable data: the message alone
    }
    process.stderr.write(`[opencode-rag ${level}] ${m}${data}\n`);
  };
  return { debug: () => undefined, info: (m, d) => line("info", m, d), error: (m, d) => line("error", m, d) };
}

/** The JSON Schema an MCP client sees for a tool's arguments (from the same zod shape). */
export function inputSchema(def: ToolDefinition): { type: "object"; [key: string]: unknown } {
  const { $schema: _drop, ...schema } = z.toJSONSchema(def.schema, { io: "input" }) as Record<string, unknown>;
  return { ...schema, type: "object" };
}

/**
 * Keeps stdout for the protocol: the transport gets a private handle on the real stdout, and
 * anything else in the process that writes to process.stdout (a dependency's console.log)
 * is sent to stderr instead, where it cannot corrupt a JSON-RPC frame.
 */
function reserveStdout(): Writable {
  const realWrite = process.stdout.write.bind(process.stdout) as (chunk: unknown, cb?: (err?: Error | null) => void) => boolean;
  const protocolOut = new Writable({
    write(chunk, _encoding, callback) {
      realWrite(chunk, (err) => callback(err ?? null));
    },
  });
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  return protocolOut;
}

export interface McpServeOptions {
  root: string;
  deps: CoreDeps;
  /** Start the background indexer (default: config autoIndex.enabled). */
  backgroundIndexer?: boolean;
}

/** Serves MCP over stdio until the client closes stdin (or a signal); resolves after cleanup. */
export async function serveMcp(options: McpServeOptions): Promise<void> {
  const protocolOut = reserveStdout();
  // Loaded here, not at the top: other CLI commands should not pay for the SDK at start-up.
  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");

  const ws = new RagWorkspace(options.root, options.deps, { component: "mcp" });
  ws.logger = teeLogger(ws.logger, stderrLogger());
  if ((options.backgroundIndexer ?? true) && ws.config.autoIndex.enabled) ws.startIndexer();

  const version = process.env.npm_package_version ?? "0.1.0";
  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    // The same guidance the plugin adds to OpenCode's system prompt, from the same source.
    { capabilities: { tools: {} }, instructions: systemGuidance(guidanceOptions(ws.config)) },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: offeredTools(ws.config, "mcp").map((def) => ({ name: def.name, description: def.description, inputSchema: inputSchema(def) })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    const offered = offeredTools(ws.config, "mcp");
    const def = offered.find((d) => d.name === name);
    if (!def) {
      return { content: [{ type: "text" as const, text: `Unknown tool ${name}; this server offers ${offered.map((d) => d.name).join(", ")}.` }], isError: true };
    }
    const answer = await executeTool(ws, def, request.params.arguments ?? {});
    return { content: [{ type: "text" as const, text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
  });

  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let closing = false;
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    ws.logger.info("mcp server stopping", { reason: why });
    await server.close().catch(() => undefined);
    await ws.close().catch(() => undefined);
    finish();
  };
  // The client ends the session by closing our stdin; signals cover a killed client.
  process.stdin.once("end", () => void shutdown("stdin closed"));
  process.stdin.once("close", () => void shutdown("stdin closed"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  const transport = new StdioServerTransport(process.stdin, protocolOut);
  transport.onclose = () => void shutdown("transport closed");
  await server.connect(transport);
  ws.logger.info("mcp server ready", { root: ws.root, tools: offeredTools(ws.config, "mcp").map((d) => d.name) });
  await done;
}
