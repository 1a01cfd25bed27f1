// opencode-rag as a local MCP server of the real OpenCode (no plugin): `init --mcp opencode`
// writes the entry, OpenCode starts `opencode-rag mcp` itself, and the scripted model calls
// search_semantic through it.
import { existsSync, readFileSync, rmSync, symlinkSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUIDANCE_TEXT } from "../../opencode-plugin/guidance.js";
import { heavyFileList, heavyUsageFiles, HEAVY_SYMBOL } from "../fixtures/heavy-usages.js";
import { calledTools, FakeLlm, systemText, toolNames, toolResults, type ChatRequest } from "./fake-llm.js";
import { E2EProject } from "./opencode.js";

const searchTool = (r: ChatRequest) => toolNames(r).find((n) => n.endsWith("search_semantic"));
const usagesTool = (r: ChatRequest) => toolNames(r).find((n) => n.endsWith("find_usages"));

describe("opencode-rag mcp inside the real OpenCode", () => {
  const llm = new FakeLlm([
    { name: "title", when: (r) => toolNames(r).length === 0, reply: { text: "E2E title" } },
    {
      name: "agent",
      when: () => true,
      reply: (r: ChatRequest) => {
        const search = searchTool(r);
        const usages = usagesTool(r);
        const called = calledTools(r).length;
        if (search && called === 0) return { toolCalls: [{ name: search, arguments: { query: "remove sessions whose expiry time has passed", topK: 3 } }] };
        if (usages && called === 1) return { toolCalls: [{ name: usages, arguments: { symbolName: HEAVY_SYMBOL } }] };
        return { text: "E2E_FINAL done" };
      },
    },
  ]);
  let project: E2EProject;
  let run: Awaited<ReturnType<E2EProject["run"]>>;

  beforeAll(async () => {
    const port = await llm.start();
    project = new E2EProject(port).setup({ ragConfig: { embedding: { provider: "none" }, memory: { enabled: false } }, index: true, files: heavyUsageFiles() });
    // The MCP server alone: take the plugin init wrote back out.
    rmSync(join(project.dir, ".opencode/plugins/rag-plugin.js"));
    // `npx opencode-rag` runs the project's bin, as after `npm install --save-dev opencode-rag`.
    mkdirSync(join(project.dir, "node_modules/.bin"), { recursive: true });
    symlinkSync("../opencode-rag/dist/cli.js", join(project.dir, "node_modules/.bin/opencode-rag"));
    const init = project.cli("init", "--mcp", "opencode");
    expect(init.status, init.stderr).toBe(0);
    run = await project.run("Where do sessions expire? Use the opencode-rag tools.");
  }, 240_000);
  afterAll(async () => {
    await llm.stop();
    project?.cleanup();
  });

  it("starts the server from the opencode.json entry init wrote", () => {
    const cfg = JSON.parse(readFileSync(join(project.dir, "opencode.json"), "utf8"));
    expect(cfg.mcp["opencode-rag"]).toEqual({ type: "local", command: ["npx", "opencode-rag", "mcp"] });
    expect(existsSync(join(project.dir, ".opencode/plugins/rag-plugin.js"))).toBe(false);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
  });

  it("offers the server's tools to the model, and the plugin's tools are absent", () => {
    const turn = llm.agentRequests()[0];
    const names = toolNames(turn);
    // OpenCode prefixes MCP tools with the server's name.
    expect(searchTool(turn)).toBe("opencode-rag_search_semantic");
    for (const t of ["get_file_skeleton", "find_usages", "describe_image", "index_status"]) expect(names.some((n) => n.endsWith(t))).toBe(true);
    // Plugin tools would carry the bare names.
    expect(names).not.toContain("search_semantic");
    // Without the plugin, the guidance reaches the prompt through AGENTS.md (init wrote it).
    expect(systemText(turn)).toContain(GUIDANCE_TEXT.split("\n")[0]);
  });

  it("answers search_semantic through MCP with the plugin's output format", () => {
    const [answer] = toolResults(llm.agentRequests().at(-1)!);
    expect(answer).toMatch(/## search_semantic: "remove sessions whose expiry time has passed" — \d+ result\(s\)/);
    expect(answer).toContain("src/auth/session.ts");
    expect(answer).toContain("keyword-only search");
    expect(run.events.some((e) => e.type === "tool_use")).toBe(true);
  });

  it("answers find_usages through MCP with every file and its count, as the plugin does", () => {
    const [, usages] = toolResults(llm.agentRequests().at(-1)!);
    expect(usages).toContain("## Usages of `recordHit` — 96 reference(s) in 4 file(s) (definition excluded)");
    expect(usages).toContain(["Files, importers first, tests last:", ...heavyFileList()].join("\n"));
    expect(usages).toContain("Uses 1-30 of 96, taken in turn from each file:");
    expect(usages).toContain("66 more uses in 1 file: call find_usages again with the same arguments and offset=30");
  });
});
