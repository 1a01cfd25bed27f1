// `opencode-rag eval --sessions`: the token usage of logged OpenCode sessions, through the
// built CLI, over logs written by the plugin's own session logger.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { SessionLog } from "../../core/telemetry/session-log.js";

const run = promisify(execFile);
const CLI = resolve(__dirname, "../../dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "rag-sessions-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]) {
  try {
    const r = await run(process.execPath, [CLI, ...args], { cwd: dir });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("opencode-rag eval --sessions", () => {
  it("says where logs come from when there are none", async () => {
    const r = await cli("eval", "--sessions", join(dir, "empty"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no session logs in .*eval-sessions: they are written by the OpenCode plugin/);
  });

  it("reports model tokens, tool calls and retrieval context per session", async () => {
    const state = join(dir, "state");
    const log = new SessionLog(state);
    const assistant = (id: string, input: number, output: number) => ({
      type: "message.updated",
      properties: { info: { id, role: "assistant", sessionID: "ses_a", cost: 0, tokens: { input, output, reasoning: 0, cache: { read: 100, write: 0 } } } },
    });
    log.logEvent("ses_a", "message.updated", { type: "message.updated", properties: { info: { id: "msg_u", role: "user", sessionID: "ses_a" } } });
    log.logEvent("ses_a", "message.updated", assistant("msg_a1", 1200, 80));
    log.logEvent("ses_a", "message.updated", assistant("msg_a1", 1500, 90)); // the last update of a message counts
    log.logRetrieval("ses_a", { source: "search_semantic", query: "where are sessions expired", chunkCount: 4, contextTokens: 420, topScore: 0.8, latencyMs: 12 });
    const text = await cli("eval", "--sessions", state);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/ses_a\s+2\s+1500\s+90\s+100\s+1\s+420/);
    const json = await cli("eval", "--sessions", state, "--json");
    const [report] = JSON.parse(json.stdout);
    expect(report).toMatchObject({ sessionID: "ses_a", tokens: { input: 1500, output: 90 }, retrieval: { count: 1, contextTokens: 420 } });
  });
});
