// The one definition of every agent tool (name, description, argument schema, body), shared by
// the hosts: the OpenCode plugin (server.ts) and the MCP server (mcp/server.ts) only adapt these
// to their protocol, so both answer with the same text, limits and error lines.
import { z } from "zod";
import type { RagConfig } from "../../core/config/defaults.js";
import { RANK_WEIGHTS } from "../../core/retrieval/rank.js";
import type { RagWorkspace } from "../workspace.js";
import { formatCount } from "../format.js";
import { DescribeImageSchema, describeImageArgs, runDescribeImage } from "./describe-image.js";
import { FileSkeletonSchema, fileSkeletonArgs, runFileSkeleton } from "./file-skeleton.js";
import { FindUsagesSchema, findUsagesArgs, runFindUsages } from "./find-usages.js";
import { ADD_QUIRK_DESCRIPTION, AddQuirkSchema, addQuirkArgs, RECALL_QUIRKS_DESCRIPTION, RecallQuirksSchema, recallQuirksArgs, runAddQuirk, runRecallQuirks } from "./quirks.js";
import { ReadSchema, readArgs, runRead } from "./read-override.js";
import { runSearchSemantic, SearchSemanticSchema, searchSemanticArgs } from "./search-semantic.js";
import { engineOrMessage, indexNotice } from "./context.js";

export type ToolHost = "opencode" | "mcp";

export interface ToolCallContext {
  /** The host's conversation id, when it has one (retrieval telemetry). */
  sessionID?: string;
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** The zod shape of the arguments (OpenCode's `args`; MCP lists it as JSON Schema). */
  args: z.ZodRawShape;
  schema: z.ZodObject<z.ZodRawShape>;
  /** Whether a host offers the tool under this config. */
  offered(config: RagConfig, host: ToolHost): boolean;
  /** The answer for validated arguments. */
  run(ws: RagWorkspace, args: never, ctx: ToolCallContext): Promise<string>;
}

/** Keeps each body's argument type checked against its own schema. */
function define<S extends z.ZodRawShape>(d: {
  name: string;
  description: string;
  args: S;
  schema: z.ZodObject<S>;
  offered?: (config: RagConfig, host: ToolHost) => boolean;
  run: (ws: RagWorkspace, args: z.infer<z.ZodObject<S>>, ctx: ToolCallContext) => Promise<string>;
}): ToolDefinition {
  return { offered: () => true, ...d } as unknown as ToolDefinition;
}

const indexStatusArgs = {};
const IndexStatusSchema = z.object(indexStatusArgs);

/** index_status: what is indexed and whether a pass is running, in a few lines. */
async function runIndexStatus(ws: RagWorkspace): Promise<string> {
  const engine = await engineOrMessage(ws);
  if (typeof engine === "string") return engine;
  const s = await engine.status();
  const lines = [
    `## Index status — ${s.root}`,
    `chunks: ${formatCount(s.chunks)} from ${formatCount(s.files)} files`,
    `search: ${s.keywordOnlyReason ? `keyword-only (${s.keywordOnlyReason})` : `hybrid (${s.provider} ${s.model})`}`,
    `last indexed: ${s.lastIndexedAt ?? "never"}`,
    `up to date: ${formatCount(s.upToDateFiles)} files, pending: ${formatCount(s.pendingFiles)} files`,
    `watch: ${s.watch.state}${s.watch.backend ? ` (${s.watch.backend})` : ""}${s.watch.message ? `: ${s.watch.message}` : ""}`,
  ];
  if (s.indexing) lines.push(`indexing: ${formatCount(s.indexing.filesDone)}/${formatCount(s.indexing.filesTotal)} files (since ${s.indexing.startedAt})`);
  if (s.storeDamage) lines.push(`damaged: ${s.storeDamage}; the next pass rebuilds the store`);
  const notice = indexNotice(s);
  if (notice) lines.push("", notice);
  return lines.join("\n");
}

/** Every tool, in the order hosts list them. */
export const TOOL_DEFINITIONS: ToolDefinition[] = [
  define({
    name: "search_semantic",
    description:
      "Semantic + keyword search over this workspace's index. Finds code, docs and images by meaning; returns path, line range, score, language and a preview per hit. Use narrow, specific queries: " +
      `a question finds the files about a topic ("where are sessions expired?"); a sentence of ${RANK_WEIGHTS.descriptionWords} words or more saying what one function does finds that function ("remove the sessions idle for longer than the timeout and log each one").`,
    args: searchSemanticArgs,
    schema: SearchSemanticSchema,
    run: (ws, a, ctx) => runSearchSemantic(ws, a, ctx.sessionID),
  }),
  define({
    name: "get_file_skeleton",
    description: "Outline of one workspace file (classes, functions, methods, types, headings) with line ranges, without its bodies. Any file, indexed or not.",
    args: fileSkeletonArgs,
    schema: FileSkeletonSchema,
    run: (ws, a) => runFileSkeleton(ws, a.filePath),
  }),
  define({
    name: "find_usages",
    description:
      "Every file that references an identifier (not substrings, not comments unless asked), each with its count and kind of use (import, re-export, call, type), importers first and tests last; then the uses with surrounding lines, taken in turn from each file; then how many are left, with the offset or file to pass to see them. The definition is left out. Use before changing or renaming a symbol.",
    args: findUsagesArgs,
    schema: FindUsagesSchema,
    run: (ws, a) => runFindUsages(ws, a),
  }),
  define({
    name: "describe_image",
    description: "The stored description of an indexed image (written at index time; no model is called).",
    args: describeImageArgs,
    schema: DescribeImageSchema,
    run: (ws, a) => runDescribeImage(ws, a.filePath),
  }),
  define({
    name: "add_quirk",
    description: ADD_QUIRK_DESCRIPTION,
    args: addQuirkArgs,
    schema: AddQuirkSchema,
    offered: (config) => config.memory.enabled,
    run: (ws, a) => runAddQuirk(ws, a),
  }),
  define({
    name: "recall_quirks",
    description: RECALL_QUIRKS_DESCRIPTION,
    args: recallQuirksArgs,
    schema: RecallQuirksSchema,
    offered: (config) => config.memory.enabled,
    run: (ws, a) => runRecallQuirks(ws, a),
  }),
  define({
    // OpenCode only: it replaces OpenCode's own read tool; an MCP client keeps its own.
    name: "read",
    description: "Reads a file from the local filesystem (full text with line numbers), followed by related code from elsewhere in the workspace found by opencode-rag.",
    args: readArgs,
    schema: ReadSchema,
    offered: (config, host) => host === "opencode" && config.openCode.readOverride,
    run: (ws, a) => runRead(ws, a),
  }),
  define({
    // MCP only: OpenCode users have the TUI and the status command for this.
    name: "index_status",
    description: "Status of this workspace's index: chunks and files indexed, keyword-only or hybrid search, last pass, pending files, and whether a pass is running.",
    args: indexStatusArgs,
    schema: IndexStatusSchema,
    offered: (_config, host) => host === "mcp",
    run: (ws) => runIndexStatus(ws),
  }),
];

/** The tools a host offers under a config, in listing order. */
export function offeredTools(config: RagConfig, host: ToolHost): ToolDefinition[] {
  return TOOL_DEFINITIONS.filter((d) => d.offered(config, host));
}

export interface ToolAnswer {
  text: string;
  /** The arguments were rejected or the body failed: the text says why. */
  isError: boolean;
}

/** One argument's problem; a message that already names its argument is not prefixed again. */
function problem(key: string, message: string): string {
  if (!key) return `arguments: ${message}`;
  return message.startsWith(`${key} `) ? message : `${key}: ${message}`;
}

/**
 * Runs a tool for any host. Arguments are validated here (OpenCode 1.18 does not check them
 * against the schema, and MCP clients may not either), and an unexpected failure becomes a
 * one-line answer instead of a failed call.
 */
export async function executeTool(ws: RagWorkspace, def: ToolDefinition, args: unknown, ctx: ToolCallContext = {}): Promise<ToolAnswer> {
  const name = def.name;
  const parsed = def.schema.safeParse(args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => problem(i.path.map(String).join("."), i.message)).join("; ");
    return { text: `Invalid arguments for ${name}: ${problems}. Fix them and call ${name} again.`, isError: true };
  }
  try {
    await ws.refreshConfig();
    return { text: await def.run(ws, parsed.data as never, ctx), isError: false };
  } catch (err) {
    ws.logger.error(`tool ${name} failed`, { error: err as Error });
    // A disk or network failure already says what happened and what to do, in one line.
    if (err instanceof Error && err.name === "PlainError") return { text: `${name} failed: ${err.message}. Use your usual tools meanwhile.`, isError: true };
    return { text: `${name} failed: ${(err as Error).message || String(err)}. The index may be rebuilding; try again, or use your usual tools.`, isError: true };
  }
}
