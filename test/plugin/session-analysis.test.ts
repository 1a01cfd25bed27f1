import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeSession, formatSessionReports } from "../../core/telemetry/session-analysis.js";
import { readSessionLogs, SessionLog } from "../../core/telemetry/session-log.js";

// Event shapes as OpenCode 1.18 emits them (recorded from a real run, trimmed).
const S = "ses_a";
const msg = (id: string, role: string, tokens?: object, cost = 0) => ({ type: "message.updated", properties: { sessionID: S, info: { id, role, sessionID: S, tokens, cost } } });
const tool = (id: string, name: string, status: string) => ({ type: "message.part.updated", properties: { sessionID: S, part: { id, type: "tool", tool: name, callID: `call_${id}`, state: { status } } } });

describe("session log analysis", () => {
  const dir = mkdtempSync(join(tmpdir(), "rag-analysis-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("sums each assistant message's final token counts once, counts completed tool calls and retrieval context", () => {
    const log = new SessionLog(dir);
    const events = [
      msg("m_u", "user"),
      msg("m_a1", "assistant", { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }),
      tool("p1", "search_semantic", "running"),
      tool("p1", "search_semantic", "completed"),
      msg("m_a1", "assistant", { total: 1200, input: 1000, output: 200, reasoning: 0, cache: { read: 800, write: 0 } }, 0.01),
      msg("m_a2", "assistant", { total: 1500, input: 1400, output: 100, reasoning: 0, cache: { read: 1000, write: 50 } }, 0.02),
      tool("p2", "find_usages", "completed"),
      tool("p3", "find_usages", "error"),
    ];
    for (const e of events) log.logEvent(S, e.type, e);
    log.logRetrieval(S, { source: "search_semantic", query: "q", chunkCount: 3, contextTokens: 400, topScore: 0.8, latencyMs: 30 });
    log.logRetrieval(S, { source: "inject-files", query: "q", chunkCount: 5, contextTokens: 60, topScore: 0.6, latencyMs: 10 });
    const [[id, entries]] = readSessionLogs(dir);
    const r = analyzeSession(id, entries);
    expect(r).toMatchObject({
      sessionID: "ses_a",
      userMessages: 1,
      assistantMessages: 2,
      tokens: { input: 2400, output: 300, cacheRead: 1800, cacheWrite: 50 },
      toolCalls: { search_semantic: 1, find_usages: 1 },
      retrieval: { count: 2, contextTokens: 460, bySource: { "inject-files": { count: 1, contextTokens: 60 } }, meanLatencyMs: 20 },
    });
    expect(r.cost).toBeCloseTo(0.03);
    expect(r.retrieval.meanTopScore).toBeCloseTo(0.7);
    const table = formatSessionReports([r]);
    expect(table.split("\n")).toHaveLength(3);
    expect(table).toContain("search_semantic×1 find_usages×1");
  });
});
