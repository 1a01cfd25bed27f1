// The plugin inside the real OpenCode: the scripted model calls each tool in turn; the test
// checks what the model received — tools offered, their answers, the guidance, context.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUIDANCE_TEXT, WIKI_PROTOCOL } from "../../opencode-plugin/guidance.js";
import { INJECT_FILES_MARKER } from "../../opencode-plugin/markers.js";
import { heavyFileList, heavyUsageFiles, HEAVY_SYMBOL } from "../fixtures/heavy-usages.js";
import { calledTools, FakeLlm, systemText, textOf, toolNames, toolResults, userTexts, type ChatRequest } from "./fake-llm.js";
import { E2EProject } from "./opencode.js";

/** A 1x1 PNG: enough for the indexer to treat it as an image and ask for a description. */
const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const ALL_TOOLS = ["search_semantic", "get_file_skeleton", "find_usages", "describe_image"];
const SCRIPT: Array<{ name: string; arguments: Record<string, unknown> }> = [
  { name: "search_semantic", arguments: { query: "remove sessions whose expiry time has passed", topK: 3 } },
  { name: "get_file_skeleton", arguments: { filePath: "src/auth/session.ts" } },
  { name: "find_usages", arguments: { symbolName: "expireSessions" } },
  { name: "describe_image", arguments: { filePath: "docs/diagram.png" } },
  // A symbol used 90 times in the file alphabetically first and a few times in three others.
  { name: "find_usages", arguments: { symbolName: HEAVY_SYMBOL } },
];

/** Calls the scripted tools one per turn, then answers with a final text. */
const IMAGE_DESCRIPTION = "Architecture diagram: the API handler calls the session store, which expires old sessions.";
const lastUserContent = (r: ChatRequest) => JSON.stringify(r.messages.filter((m) => m.role === "user").at(-1)?.content ?? "");

function scriptedAgent(script = SCRIPT) {
  return new FakeLlm([
    // Index-time descriptions (description.enabled): the image, then batches of chunks.
    { name: "describe-image", when: (r) => toolNames(r).length === 0 && lastUserContent(r).includes("image_url"), reply: { text: IMAGE_DESCRIPTION } },
    {
      name: "describe-chunks",
      when: (r) => toolNames(r).length === 0 && lastUserContent(r).includes("### Chunk"),
      reply: (r: ChatRequest) => {
        const n = (lastUserContent(r).match(/### Chunk \d+/g) ?? []).length;
        return { text: JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), "Part of the sample service."]))) };
      },
    },
    { name: "title", when: (r) => toolNames(r).length === 0, reply: { text: "E2E title" } },
    {
      name: "agent",
      when: () => true,
      reply: (r: ChatRequest) => {
        const next = script[calledTools(r).length];
        return next ? { toolCalls: [next] } : { text: "E2E_FINAL done" };
      },
    },
  ]);
}

describe("opencode-rag in the real OpenCode: tools, guidance and injection on an indexed project", () => {
  const llm = scriptedAgent();
  let project: E2EProject;
  let result: Awaited<ReturnType<E2EProject["run"]>>;

  beforeAll(async () => {
    const port = await llm.start();
    // Installed as npm would (files copied), not linked: assets must load from the install.
    project = new E2EProject(port).setup({
      ragConfig: {
        autoIndex: { enabled: false },
        // Descriptions from the same fake model, so the image has one stored for describe_image.
        description: { enabled: true, provider: "openai", model: "fake-model", visionModel: "fake-model", baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "fake-key" },
      },
      files: { "docs/diagram.png": TINY_PNG, ...heavyUsageFiles() },
      install: "copy",
    });
    await project.indexAsync();
    result = await project.run("Where do sessions expire? Use the opencode-rag tools.");
  }, 240_000);
  afterAll(async () => {
    await llm.stop();
    project?.cleanup();
  });

  it("loads the model and grammars from the installed package, not from this checkout", () => {
    const log = readFileSync(join(project.dir, ".opencode/opencode-rag.log"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const loads = log.filter((l) => l.message === "embedding model loaded");
    expect(loads.length).toBeGreaterThan(0);
    for (const l of loads) expect(l.folder.startsWith(join(project.dir, "node_modules/opencode-rag/models"))).toBe(true);
  });

  it("logs the session's events and each retrieval's metrics", () => {
    const dir = join(project.dir, ".opencode/rag_db/eval-sessions");
    const files = readdirSync(dir).filter((f) => f.startsWith("ses_"));
    expect(files).toHaveLength(1);
    const entries = readFileSync(join(dir, files[0]), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const events = new Set(entries.filter((e) => e.type === "event").map((e) => e.eventType));
    expect(events).toContain("message.part.updated");
    expect(events).toContain("session.idle");
    const retrieval = entries.find((e) => e.type === "retrieval");
    expect(retrieval).toMatchObject({ source: "search_semantic", query: SCRIPT[0].arguments.query });
    expect(retrieval.chunkCount).toBeGreaterThan(0);
    expect(retrieval.contextTokens).toBeGreaterThan(20);
    expect(retrieval.topScore).toBeGreaterThan(0);
  });

  it("expands the marker the TUI appends into a file list in the user's message", async () => {
    const before = llm.requests.length;
    // What the TUI's Ctrl+Enter does: the prompt text plus the marker.
    const run = await project.run(`How are expired sessions purged?\n\n${INJECT_FILES_MARKER}`);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const turn = llm.requests.slice(before).find((r) => toolNames(r).length > 0)!;
    const user = userTexts(turn).join("\n");
    expect(user).toContain("How are expired sessions purged?");
    expect(user).not.toContain("opencode-rag:files");
    expect(user).toContain("Files related to this message (opencode-rag):");
    expect(user).toMatch(/src\/auth\/session\.ts \(typescript, lines \d+-\d+/);
  }, 180_000);

  it("/rag-chunks appends full code chunks to the question", async () => {
    const before = llm.requests.length;
    const run = await project.run("How are expired sessions purged?", { command: "rag-chunks" });
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const turn = llm.requests.slice(before).find((r) => toolNames(r).length > 0)!;
    const user = userTexts(turn).join("\n");
    expect(user).toContain("How are expired sessions purged?");
    expect(user).toContain("Code related to this message (opencode-rag):");
    expect(user).toMatch(/### src\/auth\/session\.ts:\d+-\d+ \(typescript, function expireSessions\)\n```typescript\n[\s\S]*store\.remove\(s\.id\)/);
  }, 180_000);

  it("finishes the prompt normally", () => {
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(result.events.some((e) => e.type === "text" && JSON.stringify(e).includes("E2E_FINAL"))).toBe(true);
  });

  it("offers every tool to the model", () => {
    const first = llm.agentRequests()[0];
    expect(first, "no agent request reached the fake LLM").toBeDefined();
    for (const t of ALL_TOOLS) expect(toolNames(first)).toContain(t);
  });

  it("returns each tool's answer to the model", () => {
    const last = llm.agentRequests().at(-1)!;
    const results = toolResults(last);
    expect(results).toHaveLength(5);
    const [search, skeleton, usages, image, heavy] = results;
    expect(search).toContain("src/auth/session.ts:");
    expect(search).toContain("expireSessions");
    expect(skeleton).toContain("## Skeleton — src/auth/session.ts (typescript");
    expect(skeleton).toContain("□ class SessionStore");
    expect(skeleton).toMatch(/ƒ function expireSessions {2}L\d+-L\d+/);
    expect(usages).toContain("## Usages of `expireSessions` — 3 reference(s) in 1 file(s) (definition excluded)");
    expect(usages).toContain("### src/api/handler.ts (typescript) — 3 reference(s)");
    expect(usages).not.toContain("src/auth/session.ts");
    expect(image).toBe(`## Image — docs/diagram.png\n${IMAGE_DESCRIPTION}`);
    // Every file that uses the symbol, with its count and kinds, not only the heavy first one.
    expect(heavy).toContain("## Usages of `recordHit` — 96 reference(s) in 4 file(s) (definition excluded)");
    expect(heavy).toContain(["Files, importers first, tests last:", ...heavyFileList()].join("\n"));
    expect(heavy).toContain("Uses 1-30 of 96, taken in turn from each file:");
    expect(heavy.match(/^### /gm)).toHaveLength(4);
    expect(heavy).toContain('66 more uses in 1 file: call find_usages again with the same arguments and offset=30 for the next ones, or with file="src/analytics/aggregate.ts"');
  });

  it("puts the guidance in the system prompt, byte-identical on every turn, after OpenCode's own prompt", () => {
    const turns = llm.agentRequests();
    expect(turns.length).toBeGreaterThanOrEqual(5);
    const systems = turns.map((t) => t.messages.filter((m) => m.role === "system").map((m) => JSON.stringify(m.content)));
    for (const s of systems) expect(s).toEqual(systems[0]);
    const system = systemText(turns[0]);
    // Once: from AGENTS.md (written by init); the hook adds only what AGENTS.md lacks.
    expect(system.split(GUIDANCE_TEXT)).toHaveLength(2);
    expect(system.indexOf(GUIDANCE_TEXT)).toBeGreaterThan(0);
    expect(system).toContain(WIKI_PROTOCOL);
    const pushed = turns[0].messages.filter((m) => m.role === "system").at(-1)!;
    expect(textOf(pushed.content)).toContain(WIKI_PROTOCOL);
    expect(userTexts(turns[0])[0]).toContain("Where do sessions expire?");
    // OpenCode's title request (no tools) is left without the guidance.
    const title = llm.requests.find((r) => toolNames(r).length === 0 && systemText(r).includes("title generator"))!;
    expect(title, "no title request seen").toBeDefined();
    expect(systemText(title)).not.toContain(WIKI_PROTOCOL);
    expect(systemText(title)).not.toContain(GUIDANCE_TEXT);
  });
});
