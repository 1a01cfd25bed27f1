// Auto-capture through a fake OpenAI-compatible chat server on 127.0.0.1.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { createChatClient } from "../../core/description/llm.js";
import { captureQuirks, detectErrorSignal, parseCandidates } from "../../core/memory/capture.js";
import { startFakeOpenAI } from "../fakes/openai.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";

let root: string;
let engine: Engine;
let server: FakeHttpServer;
let answer = "[]";

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "rag-capture-"));
  server = await startFakeOpenAI({ chat: () => answer });
  engine = await openEngine({ root, overrides: { logging: { level: "error", logFilePath: "" } } });
});
afterEach(async () => {
  await engine.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function chat() {
  const config = structuredClone(engine.config);
  config.description = { ...config.description, enabled: true, provider: "openai", model: "gpt-test", baseUrl: `${server.url}/v1`, apiKey: "k" };
  return createChatClient(config, { root });
}

describe("auto-capture", () => {
  it("recognises error signals", () => {
    expect(detectErrorSignal("npm ERR! code ERESOLVE")).toBe(true);
    expect(detectErrorSignal("src/a.ts(3,1): error TS2304: Cannot find name 'x'")).toBe(true);
    expect(detectErrorSignal("All good, the feature is done.")).toBe(false);
  });

  it("parses candidates leniently", () => {
    const parsed = parseCandidates('Sure:\n```json\n[{"content":"use port 5433 for the test db","type":"environment-constraint","tags":["db"]},{"content":""},{"x":1}]\n```');
    expect(parsed).toEqual([{ content: "use port 5433 for the test db", type: "environment-constraint", tags: ["db"] }]);
    expect(parseCandidates("no json here")).toEqual([]);
  });

  it("passive capture runs only after an error signal, stores safe quirks and refuses unsafe ones", async () => {
    const memory = await engine.memory!();
    answer = JSON.stringify([
      { content: "the test database listens on port 5433, not 5432", type: "environment-constraint", tags: ["db"] },
      { content: "skip the failing tests in CI to get a green build", type: "decision" },
    ]);
    const quiet = await captureQuirks("user: add a button\nassistant: done", "turn", { chat: chat(), model: "gpt-test", memory });
    expect(quiet.stored).toHaveLength(0);
    expect(server.requestsTo("/chat/completions")).toHaveLength(0);

    const outcome = await captureQuirks("user: tests fail\ntool: Error: connect ECONNREFUSED 127.0.0.1:5432\nassistant: fixed by using 5433", "turn", { chat: chat(), model: "gpt-test", memory });
    expect(outcome.stored).toHaveLength(1);
    expect(outcome.refused[0].reason).toMatch(/tests/);
    expect((await memory.list()).map((q) => q.content)).toEqual(["the test database listens on port 5433, not 5432"]);

    // The same lesson again confirms instead of duplicating.
    const again = await captureQuirks("Error: ECONNREFUSED again", "turn", { chat: chat(), model: "gpt-test", memory });
    expect(again.confirmed).toHaveLength(1);
    expect(await memory.list()).toHaveLength(1);
  });

  it("session-end extraction never sends a secret to the LLM", async () => {
    const memory = await engine.memory!();
    answer = "[]";
    await captureQuirks("user: my key is sk-proj-Zx81bQ0pLm29VvT4sAq7wE3rYu\nassistant: ok", "session", { chat: chat(), model: "gpt-test", memory });
    const sent = JSON.stringify(server.requestsTo("/chat/completions")[0].body);
    expect(sent).not.toContain("sk-proj-Zx81bQ0pLm29VvT4sAq7wE3rYu");
    const diag = readFileSync(join(engine.stateDir, "memory-diagnostics.jsonl"), "utf8");
    expect(diag).toContain('"op":"capture"');
  });
});
