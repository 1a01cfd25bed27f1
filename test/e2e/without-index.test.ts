// The plugin where things are not ready: a workspace never indexed, and one whose config file
// is broken. Tools must answer with a clear message and the prompt must still succeed; the
// slash commands (/doc, /wiki) work without an index.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calledTools, FakeLlm, toolNames, toolResults, userTexts, type ChatRequest } from "./fake-llm.js";
import { E2EProject } from "./opencode.js";

function agentCalling(calls: Array<{ name: string; arguments: Record<string, unknown> }>) {
  return new FakeLlm([
    { name: "title", when: (r) => toolNames(r).length === 0, reply: { text: "E2E title" } },
    {
      name: "agent",
      when: () => true,
      reply: (r: ChatRequest) => {
        const n = calledTools(r).length;
        return n < calls.length ? { toolCalls: [calls[n]] } : { text: "E2E_FINAL done" };
      },
    },
  ]);
}

const lastAgentTurn = (llm: FakeLlm) => llm.agentRequests().at(-1)!;

describe("an unindexed workspace", () => {
  const llm = agentCalling([{ name: "search_semantic", arguments: { query: "session expiry" } }]);
  let project: E2EProject;

  beforeAll(async () => {
    const port = await llm.start();
    // Memory off: its recall would open the store on every message, which these checks do not need.
    project = new E2EProject(port).setup({ ragConfig: { autoIndex: { enabled: false }, documentationMode: { enabled: true }, memory: { enabled: false } } });
    mkdirSync(join(project.dir, ".opencode/wiki"), { recursive: true });
    writeFileSync(join(project.dir, ".opencode/wiki/index.md"), "# Index\n");
    writeFileSync(join(project.dir, ".opencode/wiki/log.md"), "# Log\n\n## 2026-11-01 seed\nfirst pages\n");
  }, 120_000);
  afterAll(async () => {
    await llm.stop();
    project?.cleanup();
  });

  it("search_semantic says the index is empty and how to build it; the prompt succeeds", async () => {
    const run = await project.run("Find the session expiry code.");
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const [answer] = toolResults(lastAgentTurn(llm));
    expect(answer).toContain("The index is empty: this workspace has not been indexed yet. Run `opencode-rag index`");
  }, 180_000);

  it("/doc <dir> marks the directory documented and lists what is left", async () => {
    const before = llm.requests.length;
    const run = await project.run("src/auth", { command: "doc" });
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const turn = llm.requests.slice(before).find((r) => toolNames(r).length > 0)!;
    const user = userTexts(turn).join("\n");
    expect(user).toContain("Marked `src/auth/` as documented.");
    expect(user).toContain("## Documentation — 2 undocumented file(s) in 1 directory (1 done)");
    expect(user).toContain("- src/api/handler.ts\n- src/api/rates.py");
    expect(user).not.toContain("opencode-rag:doc");
    const progress = JSON.parse(readFileSync(join(project.dir, ".opencode/rag_db/doc-mode-progress.json"), "utf8"));
    expect(Object.keys(progress.documented)).toEqual(["src/auth"]);
  }, 180_000);

  it("/wiki reports the wiki's state", async () => {
    const before = llm.requests.length;
    const run = await project.run("", { command: "wiki" });
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const turn = llm.requests.slice(before).find((r) => toolNames(r).length > 0)!;
    const user = userTexts(turn).join("\n");
    expect(user).toContain("## Wiki status\n- pages: 2\n- index.md: present\n- log.md: present");
    expect(user).toContain("## 2026-11-01 seed");
  }, 180_000);
});

describe("a broken config file", () => {
  const llm = agentCalling([
    { name: "search_semantic", arguments: { query: "session expiry" } },
    { name: "get_file_skeleton", arguments: { filePath: "src/api/rates.py" } },
    { name: "find_usages", arguments: { symbolName: "store.save()" } },
  ]);
  let project: E2EProject;

  beforeAll(async () => {
    const port = await llm.start();
    project = new E2EProject(port).setup({ ragConfig: '{ "retrieval": { "topK": 5, } ' });
  }, 120_000);
  afterAll(async () => {
    await llm.stop();
    project?.cleanup();
  });

  it("gives a one-line tool message naming the file and the fix, while other tools keep working", async () => {
    const run = await project.run("Find the session expiry code.");
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const [search, skeleton, invalid] = toolResults(lastAgentTurn(llm));
    expect(search).toMatch(/^opencode-rag is not available in this workspace: .*opencode-rag\.json:\d+: invalid JSON \(\w+\); fix the syntax and retry$/);
    expect(skeleton).toContain("□ class RateLimiter");
    expect(skeleton).toContain("ƒ method allow");
    expect(existsSync(join(project.dir, ".opencode/plugins/rag-plugin.js"))).toBe(true);
    // Arguments outside the schema are refused with the schema's own explanation.
    expect(invalid).toContain("symbolName must be one identifier");
  }, 180_000);
});
