import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countTokens, truncateToTokens } from "../../core/telemetry/tokens.js";
import { SessionLog, sessionLogPath } from "../../core/telemetry/session-log.js";

describe("cl100k token counting", () => {
  it("counts BPE tokens, not characters", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("hello world")).toBe(2);
    // Long identifiers split into several tokens: the count is not chars/4.
    const code = "export async function loadConfigurationFromDisk(path: string) {}";
    expect(countTokens(code)).toBeGreaterThan(8);
    expect(countTokens(code)).toBeLessThan(code.length / 2);
  });

  it("truncates within the budget, preferring a line end", () => {
    const text = Array.from({ length: 50 }, (_, i) => `line number ${i} of the file`).join("\n");
    const cut = truncateToTokens(text, 40);
    expect(countTokens(cut)).toBeLessThanOrEqual(40);
    expect(text.startsWith(cut)).toBe(true);
    expect(text[cut.length]).toBe("\n");
    expect(truncateToTokens("short", 40)).toBe("short");
  });
});

describe("SessionLog", () => {
  const dir = mkdtempSync(join(tmpdir(), "rag-slog-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("appends events and retrieval metrics as JSON lines per session", () => {
    const log = new SessionLog(dir);
    log.logEvent("ses_1", "message.updated", { type: "message.updated", properties: { x: 1 } });
    log.logRetrieval("ses_1", { source: "search_semantic", query: "q", chunkCount: 3, contextTokens: 120, topScore: 0.8, latencyMs: 12 });
    const lines = readFileSync(sessionLogPath(dir, "ses_1"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["event", "retrieval"]);
    expect(lines[1]).toMatchObject({ chunkCount: 3, contextTokens: 120, topScore: 0.8, source: "search_semantic" });
  });

  it("never lets a session id escape the log folder", () => {
    expect(sessionLogPath(dir, "../../etc/passwd")).toBe(join(dir, "eval-sessions", ".._.._etc_passwd.jsonl"));
  });
});

describe("SessionLog redaction", () => {
  const dir = mkdtempSync(join(tmpdir(), "rag-slog-r-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("redacts secrets in any text but keeps identifiers intact", async () => {
    const { stripSecrets } = await import("../../core/redact.js");
    const log = new SessionLog(dir, { redact: (t) => stripSecrets(t).text });
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    log.logEvent("ses_dd50c6945ffeniYiQtFl7ISq5w", "message.part.updated", {
      type: "message.part.updated",
      properties: { part: { id: "prt_22af3ab9d001dJJWjftqLK4l1E", sessionID: "ses_dd50c6945ffeniYiQtFl7ISq5w", type: "text", text: `use OPENAI_API_KEY=${key} here` } },
    });
    const text = readFileSync(sessionLogPath(dir, "ses_dd50c6945ffeniYiQtFl7ISq5w"), "utf8");
    expect(text).not.toContain(key);
    expect(text).toContain("use OPENAI_API_KEY=[REDACTED");
    expect(text).toContain('"id":"prt_22af3ab9d001dJJWjftqLK4l1E"');
    expect(text).toContain('"sessionID":"ses_dd50c6945ffeniYiQtFl7ISq5w"');
  });
});

describe("SessionLog failures", () => {
  it("never throws when the log cannot be written, and remembers why", () => {
    const dir = mkdtempSync(join(tmpdir(), "rag-slog-ro-"));
    // A file where the log folder should be: every write fails.
    writeFileSync(join(dir, "eval-sessions"), "not a folder");
    const log = new SessionLog(dir);
    expect(() => log.logRetrieval("ses_x", { source: "s", query: "q", chunkCount: 0, contextTokens: 0, topScore: null, latencyMs: 1 })).not.toThrow();
    expect(log.lastError).not.toBeNull();
    rmSync(dir, { recursive: true, force: true });
  });
});
