// Quirk memory in the chat (F28): relevant quirks appended to the user's message (never the
// system prompt), passive capture after turns that hit errors, and one extraction pass when a
// session ends. Nothing here may throw into OpenCode; every outcome lands in the memory
// diagnostics log.
import { createChatClient, type ChatClient } from "../core/description/llm.js";
import { captureQuirks } from "../core/memory/capture.js";
import { countTokens } from "../core/telemetry/tokens.js";
import type { RagWorkspace } from "./workspace.js";

interface EventLike {
  type: string;
  properties?: Record<string, any>;
}

/** Characters of transcript kept per session for capture (the tail holds the outcome). */
const TRANSCRIPT_LIMIT = 24_000;
const TOOL_OUTPUT_LIMIT = 2_000;

export class MemoryHooks {
  /** Session → what happened since the last capture (user prompts, assistant text, tool results). */
  private turns = new Map<string, string[]>();
  /** Session → the whole session's transcript, for session-end extraction. */
  private transcripts = new Map<string, string>();
  private seenParts = new Set<string>();
  private chat: ChatClient | null = null;

  constructor(private readonly ws: RagWorkspace) {}

  private get memoryConfig() {
    return this.ws.config.memory;
  }

  /** Quirks to append to this message, or null. Bounded by the memory latency budget. */
  async injectFor(sessionID: string, prompt: string, lastAssistant: string | undefined): Promise<string | null> {
    this.note(sessionID, `user: ${prompt}`);
    const m = this.memoryConfig;
    if (!m.enabled || !m.autoInject || !prompt.trim()) return null;
    const engine = await this.ws.engine();
    if (!engine.memory) return null;
    const memory = await engine.memory();
    const started = Date.now();
    const block = await memory.autoInject(sessionID, prompt, lastAssistant ?? "");
    if (block) {
      this.ws.sessionLog.logRetrieval(sessionID, {
        source: "memory-inject",
        query: prompt,
        chunkCount: block.split("\n").length - 1,
        contextTokens: countTokens(block),
        topScore: null,
        latencyMs: Date.now() - started,
      });
    }
    return block;
  }

  /** Follows the conversation; captures after an idle turn and at session end. */
  async onEvent(event: EventLike): Promise<void> {
    const p = event.properties ?? {};
    if (event.type === "message.part.updated") {
      const part = p.part;
      if (!part?.sessionID) return;
      if (part.type === "text" && !part.synthetic && typeof part.text === "string" && p.delta === undefined) {
        // Only the final text of a part is kept; streaming updates repeat it.
        const key = `${part.id}`;
        if (part.time?.end) {
          if (this.seenParts.has(key)) return;
          this.seenParts.add(key);
          this.note(part.sessionID, `assistant: ${part.text}`);
        }
      } else if (part.type === "tool" && (part.state?.status === "completed" || part.state?.status === "error")) {
        const key = `${part.id}:${part.state.status}`;
        if (this.seenParts.has(key)) return;
        this.seenParts.add(key);
        const out = String(part.state.output ?? part.state.error ?? "").slice(0, TOOL_OUTPUT_LIMIT);
        this.note(part.sessionID, `tool ${part.tool}: ${out}`);
      }
      if (this.seenParts.size > 5000) this.seenParts.clear();
      return;
    }
    if (event.type === "session.idle" && p.sessionID) {
      await this.captureTurn(p.sessionID);
      return;
    }
    if (event.type === "session.deleted") {
      const id = p.info?.id ?? p.sessionID;
      if (id) await this.captureSession(id);
    }
  }

  /** Runs session-end extraction for every session still open (plugin shutdown). */
  async flush(): Promise<void> {
    for (const id of [...this.transcripts.keys()]) await this.captureSession(id);
  }

  private note(sessionID: string, line: string): void {
    const turn = this.turns.get(sessionID) ?? [];
    turn.push(line);
    this.turns.set(sessionID, turn);
    const all = `${this.transcripts.get(sessionID) ?? ""}\n${line}`;
    this.transcripts.set(sessionID, all.length > TRANSCRIPT_LIMIT ? all.slice(-TRANSCRIPT_LIMIT) : all);
  }

  private chatClient(): ChatClient | null {
    const cfg = this.ws.config;
    if (!cfg.description.enabled || !cfg.description.model) return null;
    this.chat ??= createChatClient(cfg, { root: this.ws.root, logger: this.ws.logger });
    return this.chat;
  }

  private async captureTurn(sessionID: string): Promise<void> {
    const turn = this.turns.get(sessionID);
    this.turns.delete(sessionID);
    if (!turn?.length || !this.memoryConfig.enabled || !this.memoryConfig.passiveCapture) return;
    const chat = this.chatClient();
    if (!chat) return;
    const memory = await (await this.ws.engine()).memory!();
    await captureQuirks(turn.join("\n"), "turn", { chat, model: this.ws.config.description.model, memory });
  }

  private async captureSession(sessionID: string): Promise<void> {
    const transcript = this.transcripts.get(sessionID);
    this.transcripts.delete(sessionID);
    this.turns.delete(sessionID);
    if (!transcript || !this.memoryConfig.enabled || !this.memoryConfig.sessionEndExtraction) return;
    const chat = this.chatClient();
    if (!chat) return;
    const memory = await (await this.ws.engine()).memory!();
    await captureQuirks(transcript, "session", { chat, model: this.ws.config.description.model, memory });
  }

  async close(): Promise<void> {
    await this.chat?.close().catch(() => undefined);
    this.chat = null;
  }
}
