// Quirk memory in the real OpenCode: session 1 stores a quirk with add_quirk; session 2, a new
// OpenCode process, gets it in the user message of a related prompt and not of an unrelated
// one; the system prompt is byte-identical across every turn and never carries memory.
// (The latency budget is raised: a loaded CI machine may need seconds to load the model; the
// budget itself is tested in test/memory.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calledTools, FakeLlm, systemText, toolNames, toolResults, userTexts, type ChatRequest } from "./fake-llm.js";
import { E2EProject } from "./opencode.js";

const QUIRK = "Session expiry comparisons need TZ=UTC in the environment, otherwise they are off by hours";

describe("quirk memory across OpenCode sessions", () => {
  const llm = new FakeLlm([
    { name: "title", when: (r) => toolNames(r).length === 0, reply: { text: "E2E title" } },
    {
      name: "remember",
      when: (r: ChatRequest) => userTexts(r).some((t) => t.includes("Remember this")) && calledTools(r).length === 0,
      reply: { toolCalls: [{ name: "add_quirk", arguments: { content: QUIRK, type: "environment-constraint", tags: ["sessions", "timezone"] } }] },
    },
    { name: "final", when: () => true, reply: { text: "E2E_FINAL ok" } },
  ]);
  let project: E2EProject;
  const turns: Array<{ label: string; requests: ChatRequest[] }> = [];

  async function session(label: string, prompt: string) {
    const before = llm.requests.length;
    const run = await project.run(prompt);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const requests = llm.requests.slice(before).filter((r) => toolNames(r).length > 0);
    turns.push({ label, requests });
    return requests;
  }

  beforeAll(async () => {
    const port = await llm.start();
    project = new E2EProject(port).setup({ ragConfig: { autoIndex: { enabled: false }, memory: { autoInjectMinScore: 0, latencyBudgetMs: 20000 } }, index: true });
    await session("store", "Remember this about the project: expiry checks and timezones.");
    await session("related", "Why are session expiry comparisons off by hours on my machine?");
    await session("unrelated", "Write a haiku about autumn leaves.");
  }, 300_000);
  afterAll(async () => {
    await llm.stop();
    project?.cleanup();
  });

  it("stores the quirk through add_quirk in the first session", () => {
    const [, afterCall] = turns[0].requests;
    expect(toolNames(turns[0].requests[0])).toEqual(expect.arrayContaining(["add_quirk", "recall_quirks"]));
    expect(toolResults(afterCall).join("\n")).toMatch(/^Remembered q_/m);
  });

  it("injects it into the related prompt of a new session, once, in the user message", () => {
    const user = userTexts(turns[1].requests[0]).join("\n");
    expect(user).toContain("Remembered from earlier sessions (quirks):");
    expect(user).toContain("TZ=UTC");
    expect(user.split("TZ=UTC").length - 1).toBe(1);
  });

  it("does not inject it into an unrelated prompt", () => {
    expect(userTexts(turns[2].requests[0]).join("\n")).not.toContain("TZ=UTC");
  });

  it("keeps the system prompt byte-identical across all turns and free of memory", () => {
    const systems = turns.flatMap((t) => t.requests.map(systemText));
    expect(systems.length).toBeGreaterThanOrEqual(4);
    expect(new Set(systems).size).toBe(1);
    expect(systems[0]).toContain("recall_quirks");
    expect(systems[0]).not.toContain("TZ=UTC");
  });
});
