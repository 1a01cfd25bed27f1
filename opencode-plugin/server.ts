// The server plugin: tools (F17-F20, F25), hooks (F21-F24, F26) and the background indexer
// (F27) for one workspace. No hook may throw into OpenCode — a throwing hook fails the user's
// whole prompt — so each one runs inside `guard`, which logs and carries on.
import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin";
import { tool } from "@opencode-ai/plugin/tool";
import type { Logger } from "../core/engine-types.js";
import { countTokens } from "../core/telemetry/tokens.js";
import { slashCommands } from "./commands.js";
import { ConversationTracker, eventSessionID } from "./conversation.js";
import type { CoreDeps } from "./deps.js";
import { runDocCommand } from "./doc-mode.js";
import { GUIDANCE_TEXT, guidanceOptions, systemGuidance } from "./guidance.js";
import { buildInjection, injectionQuery, type InjectionMode } from "./injection.js";
import { extractMarkers, type FoundMarker } from "./markers.js";
import { newPartId } from "./part-id.js";
import { runWikiCommand } from "./wiki-mode.js";
import { MemoryHooks } from "./memory-hooks.js";
import { executeTool, offeredTools } from "./tools/definitions.js";
import { RagWorkspace } from "./workspace.js";
import { withinDeadline } from "./budget.js";
import { workspaceRoot } from "./workspace-root.js";

export const PLUGIN_ID = "opencode-rag";

/** How OpenCode's title-generation system prompt begins (observed in 1.18). */
const TITLE_PROMPT_START = "You are a title generator";

/** Runs a hook body; any failure is logged and swallowed so the chat goes on. */
export function guard<A extends unknown[]>(name: string, logger: () => Logger, fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      try {
        logger().error(`hook ${name} failed`, { error: err as Error });
      } catch {
        // even logging failed: nothing more to do
      }
    }
  };
}

/** One runtime per workspace root, even if OpenCode initialises the plugin more than once. */
const workspaces = new Map<string, RagWorkspace>();

export interface ServerOptions {
  /** Start the background indexer (default: config autoIndex.enabled). */
  backgroundIndexer?: boolean;
}

type Part = { id: string; sessionID: string; messageID: string; type: string; text?: string; synthetic?: boolean };

export function createRagHooks(ws: RagWorkspace, tracker = new ConversationTracker()): Hooks {
  const log = () => ws.logger;
  /** The guidance a session saw first: byte-identical for its whole life (prefix caches). */
  const sessionGuidance = new Map<string, string>();
  const memoryHooks = new MemoryHooks(ws);

  async function expand(marker: FoundMarker, sessionID: string, prompt: string): Promise<string | null> {
    if (marker.action === "doc") return runDocCommand(ws, marker.args);
    if (marker.action === "wiki") return runWikiCommand(ws, marker.args);
    return inject(marker.action, sessionID, prompt);
  }

  async function inject(mode: InjectionMode, sessionID: string, prompt: string): Promise<string | null> {
    const started = Date.now();
    const query = injectionQuery(tracker.lastAssistantText(sessionID), prompt);
    const found = await buildInjection(ws, query, mode);
    ws.sessionLog.logRetrieval(sessionID, {
      source: `inject-${mode}`,
      query,
      chunkCount: found?.chunkCount ?? 0,
      contextTokens: found?.tokens ?? 0,
      topScore: found?.topScore ?? null,
      latencyMs: Date.now() - started,
    });
    return found?.text ?? null;
  }

  // The shared definitions, in OpenCode's tool() format; which are offered is fixed at init.
  const tools: Hooks["tool"] = {};
  for (const def of offeredTools(ws.config, "opencode")) {
    tools[def.name] = tool({
      description: def.description,
      args: def.args,
      execute: async (args, ctx) => (await executeTool(ws, def, args, { sessionID: ctx.sessionID })).text,
    });
  }

  return {
    tool: tools,

    config: guard("config", log, async (cfg) => {
      const c = cfg as { command?: Record<string, unknown> };
      c.command = { ...slashCommands(ws.config), ...(c.command ?? {}) };
    }),

    "experimental.chat.system.transform": guard("system.transform", log, async (input, output) => {
      // OpenCode runs this hook for its title request too (small model, "You are a title
      // generator…"): the guidance would only cost tokens there.
      if (output.system.some((s) => s.startsWith(TITLE_PROMPT_START))) return;
      const sessionID = (input as { sessionID?: string }).sessionID;
      // AGENTS.md (written by init from the same text) may already carry the tool guidance:
      // then only the other sections are added, so the prompt never holds it twice. The title
      // request of the same session has no AGENTS.md, hence the key includes that fact.
      const inPrompt = output.system.some((s) => s.includes(GUIDANCE_TEXT));
      const key = `${sessionID}|${inPrompt}`;
      let text = sessionID ? sessionGuidance.get(key) : undefined;
      if (text === undefined) {
        text = systemGuidance({ ...guidanceOptions(ws.config), omitToolGuidance: inPrompt });
        if (sessionID) sessionGuidance.set(key, text);
      }
      // Append only: editing system[0] would break OpenCode's merge and the cached prefix.
      if (text && !output.system.some((s) => s.includes(text!))) output.system.push(text);
    }),

    "chat.message": guard("chat.message", log, async (input, output) => {
      const sessionID = input.sessionID;
      const message = output.message as { id: string; sessionID: string };
      tracker.noteUserMessage(message.id);
      const parts = output.parts as unknown as Part[];
      const markers: FoundMarker[] = [];
      let prompt = "";
      for (const part of parts) {
        if (part.type !== "text" || typeof part.text !== "string") continue;
        const found = extractMarkers(part.text);
        if (found.markers.length > 0) {
          part.text = found.text;
          markers.push(...found.markers);
        }
        if (!part.synthetic) prompt += (prompt ? "\n" : "") + part.text;
      }
      await ws.refreshConfig();
      const asked = new Set(markers.map((m) => m.action));
      if (markers.length === 0 && ws.config.openCode.autoInject && prompt.trim()) markers.push({ action: "files", args: "" });
      // Everything that waits on the engine (its first open, a search queued behind indexing,
      // memory recall) shares one deadline, so the message is never held longer than the
      // budget; what misses it is skipped for this message and logged.
      const budgetMs = ws.config.memory.latencyBudgetMs;
      const deadline = Date.now() + budgetMs;
      const skipped = (what: string) => () => ws.logger.info(`chat.message: ${what} skipped, over the latency budget`, { sessionID, budgetMs });
      const seen = new Set<string>();
      const additions: Array<Promise<string | null>> = [];
      for (const marker of markers) {
        const key = `${marker.action} ${marker.args}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const expanded = (async () => expand(marker, sessionID, prompt))();
        // /doc and /wiki answer the user's command from files, without the engine: never skipped.
        // Files or chunks the user asked for (Ctrl+Enter, /rag, /rag-chunks) wait
        // openCode.requestedInjectWaitMs, and a miss is said in the message, not dropped silently.
        const explicit = asked.has(marker.action);
        let missed = false;
        const bounded =
          marker.action === "doc" || marker.action === "wiki"
            ? expanded
            : explicit
              ? withinDeadline(expanded, Date.now() + ws.config.openCode.requestedInjectWaitMs, () => {
                  skipped(`/${marker.action} injection`)();
                  missed = true;
                }).then((text) => (missed ? requestedMissNote(marker.action, ws.config.openCode.requestedInjectWaitMs) : text))
              : withinDeadline(expanded, deadline, skipped(`/${marker.action} injection`));
        additions.push(
          bounded.catch((err: Error) => {
            ws.logger.error(`marker ${marker.action} failed`, { error: err });
            return marker.action === "files" || marker.action === "chunks" ? null : `opencode-rag could not run /${marker.action}: ${err.message}`;
          }),
        );
      }
      // Quirk memory rides on the user's message, never on the system prompt (prefix caches).
      const memory = withinDeadline(memoryHooks.injectFor(sessionID, prompt, tracker.lastAssistantText(sessionID)), deadline, skipped("memory injection")).catch((err: Error) => {
        ws.logger.error("memory injection failed", { error: err });
        return null;
      });
      for (const text of [...(await Promise.all(additions)), await memory]) {
        if (!text) continue;
        parts.push({ id: newPartId(), sessionID: message.sessionID ?? sessionID, messageID: message.id, type: "text", text, synthetic: true });
      }
    }),

    event: guard("event", log, async ({ event }) => {
      const e = event as { type: string; properties?: Record<string, unknown> };
      tracker.observe(e);
      const sessionID = eventSessionID(e);
      if (sessionID) ws.sessionLog.logEvent(sessionID, e.type, e);
      // Capture calls an LLM: never hold up OpenCode's event bus for it.
      void memoryHooks.onEvent(e).catch((err: Error) => ws.logger.error("memory capture failed", { error: err }));
    }),

    dispose: async () => {
      try {
        workspaces.delete(ws.root);
        await memoryHooks.flush().catch(() => undefined);
        await memoryHooks.close();
        await ws.close();
      } catch {
        // shutting down anyway
      }
    },
  };
}

function requestedMissNote(action: string, waitedMs: number): string {
  const what = action === "chunks" ? "code chunks" : "file list";
  return `opencode-rag: the related ${what} could not be attached (the index did not answer within ${Number((waitedMs / 1000).toFixed(1))} s); use search_semantic instead.`;
}

async function warmMemory(ws: RagWorkspace): Promise<void> {
  try {
    const engine = await ws.engine();
    const memory = await engine.memory?.();
    await memory?.recall("warm up", 1);
  } catch (err) {
    ws.logger.error("memory warm-up failed", { error: err as Error });
  }
}

/** Builds the OpenCode `server` function over a given core. */
export function createServer(deps: CoreDeps, options: ServerOptions = {}): Plugin {
  return async (input: PluginInput) => {
    // The folder OpenCode was opened in, or the project folder above it that holds the config/index.
    const root = workspaceRoot(input.directory || input.worktree, input.worktree);
    let ws = workspaces.get(root);
    if (!ws) {
      ws = new RagWorkspace(root, deps);
      workspaces.set(root, ws);
      // Open the engine now, in the background, so the first message usually finds it warm
      // (its hooks wait for it only up to the latency budget). A failure is logged by engine().
      void ws.engine().catch(() => undefined);
      const start = options.backgroundIndexer ?? true;
      // Not awaited: the first pass must never delay OpenCode's start.
      if (start && ws.config.autoIndex.enabled) ws.startIndexer();
      // Memory's first recall would otherwise pay for opening the store and loading the model,
      // and blow the latency budget of the first message. Warm it in the background.
      if (ws.config.memory.enabled && ws.config.memory.autoInject) void warmMemory(ws);
    }
    ws.logger.info("plugin loaded", { root });
    // Building the BPE table costs a few hundred ms: measure the guidance after init returns.
    const loaded = ws;
    setTimeout(() => {
      try {
        loaded.logger.info("guidance size", { tokens: countTokens(systemGuidance(guidanceOptions(loaded.config))) });
      } catch {
        // diagnostics only
      }
    }, 0).unref?.();
    return createRagHooks(ws);
  };
}
