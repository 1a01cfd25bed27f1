// Token-usage analysis of session logs (F15 `eval`, F26): what the model consumed per session
// (from OpenCode's own message token counts) next to what retrieval added to its context.
// Pure: entries in, numbers out, so the CLI and tests share it. Portable: no Node.
import type { SessionLogEntry } from "./session-log.js";

export interface RetrievalStats {
  count: number;
  contextTokens: number;
}

export interface SessionReport {
  sessionID: string;
  userMessages: number;
  assistantMessages: number;
  /** Summed over assistant messages, each counted once (its last update). */
  tokens: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number };
  cost: number;
  /** Completed tool calls by tool name. */
  toolCalls: Record<string, number>;
  retrieval: {
    count: number;
    contextTokens: number;
    bySource: Record<string, RetrievalStats>;
    meanLatencyMs: number | null;
    meanTopScore: number | null;
  };
}

interface MessageInfo {
  id?: string;
  role?: string;
  cost?: number;
  tokens?: { input?: number; output?: number; reasoning?: number; cache?: { read?: number; write?: number } };
}

export function analyzeSession(sessionID: string, entries: SessionLogEntry[]): SessionReport {
  const messages = new Map<string, MessageInfo>();
  const tools = new Map<string, string>();
  const retrievals: Array<Extract<SessionLogEntry, { type: "retrieval" }>> = [];
  for (const e of entries) {
    if (e.type === "retrieval") {
      retrievals.push(e);
      continue;
    }
    const props = ((e.event as { properties?: Record<string, unknown> } | null)?.properties ?? {}) as Record<string, any>;
    if (e.eventType === "message.updated" && props.info?.id) {
      messages.set(props.info.id, props.info as MessageInfo); // the last update holds the totals
    } else if (e.eventType === "message.part.updated" && props.part?.type === "tool" && props.part.state?.status === "completed") {
      tools.set(props.part.id ?? props.part.callID, props.part.tool);
    }
  }
  const tokens = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
  let cost = 0;
  let users = 0;
  let assistants = 0;
  for (const m of messages.values()) {
    if (m.role === "user") users++;
    if (m.role !== "assistant") continue;
    assistants++;
    cost += m.cost ?? 0;
    tokens.input += m.tokens?.input ?? 0;
    tokens.output += m.tokens?.output ?? 0;
    tokens.reasoning += m.tokens?.reasoning ?? 0;
    tokens.cacheRead += m.tokens?.cache?.read ?? 0;
    tokens.cacheWrite += m.tokens?.cache?.write ?? 0;
  }
  const toolCalls: Record<string, number> = {};
  for (const name of tools.values()) toolCalls[name] = (toolCalls[name] ?? 0) + 1;
  const bySource: Record<string, RetrievalStats> = {};
  for (const r of retrievals) {
    const s = (bySource[r.source] ??= { count: 0, contextTokens: 0 });
    s.count++;
    s.contextTokens += r.contextTokens;
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return {
    sessionID,
    userMessages: users,
    assistantMessages: assistants,
    tokens,
    cost,
    toolCalls,
    retrieval: {
      count: retrievals.length,
      contextTokens: retrievals.reduce((n, r) => n + r.contextTokens, 0),
      bySource,
      meanLatencyMs: mean(retrievals.map((r) => r.latencyMs)),
      meanTopScore: mean(retrievals.map((r) => r.topScore).filter((x): x is number => typeof x === "number")),
    },
  };
}

/** A plain-text table of reports, one line per session plus a total line. */
export function formatSessionReports(reports: SessionReport[]): string {
  const head = "session                         msgs  input    output  cache-r  retrievals  ctx-tokens  tools";
  const line = (id: string, r: Pick<SessionReport, "userMessages" | "assistantMessages" | "tokens" | "retrieval" | "toolCalls">) =>
    [
      id.padEnd(30).slice(0, 30),
      String(r.userMessages + r.assistantMessages).padStart(6),
      String(r.tokens.input).padStart(8),
      String(r.tokens.output).padStart(8),
      String(r.tokens.cacheRead).padStart(8),
      String(r.retrieval.count).padStart(11),
      String(r.retrieval.contextTokens).padStart(11),
      "  " + Object.entries(r.toolCalls).map(([k, v]) => `${k}×${v}`).join(" "),
    ].join("");
  const total = reports.reduce(
    (t, r) => {
      t.userMessages += r.userMessages;
      t.assistantMessages += r.assistantMessages;
      for (const k of Object.keys(t.tokens) as Array<keyof SessionReport["tokens"]>) t.tokens[k] += r.tokens[k];
      t.retrieval.count += r.retrieval.count;
      t.retrieval.contextTokens += r.retrieval.contextTokens;
      for (const [k, v] of Object.entries(r.toolCalls)) t.toolCalls[k] = (t.toolCalls[k] ?? 0) + v;
      return t;
    },
    { userMessages: 0, assistantMessages: 0, tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }, retrieval: { count: 0, contextTokens: 0 }, toolCalls: {} as Record<string, number> },
  );
  return [head, ...reports.map((r) => line(r.sessionID, r)), line(`total (${reports.length} sessions)`, total as never)].join("\n");
}
