import { describe, expect, it } from "vitest";
import { countTokens } from "../../core/telemetry/tokens.js";
import { GUIDANCE_TEXT, MEMORY_GUIDANCE, WIKI_PROTOCOL, systemGuidance } from "../../opencode-plugin/guidance.js";
import { QUIRK_ENFORCEMENT_RULES } from "../../core/memory/capture.js";
import { createRagHooks } from "../../opencode-plugin/server.js";
import { configWith, makeWorkspace, tempRoot } from "./helpers.js";

async function transform(hooks: ReturnType<typeof createRagHooks>, sessionID: string | undefined, system: string[]) {
  const output = { system };
  await hooks["experimental.chat.system.transform"]!({ sessionID, model: {} } as never, output);
  return output.system;
}

describe("system guidance", () => {
  it("names every tool and the workflow, and stays small", () => {
    for (const name of ["search_semantic", "get_file_skeleton", "find_usages", "describe_image"]) expect(GUIDANCE_TEXT).toContain(name);
    expect(GUIDANCE_TEXT).toContain("get_file_skeleton -> find_usages -> search_semantic");
    expect(countTokens(GUIDANCE_TEXT)).toBeLessThan(700);
  });

  it("is appended after system[0], byte-identical on every call of a session", async () => {
    const root = tempRoot();
    const { ws } = makeWorkspace(root);
    const hooks = createRagHooks(ws);
    const first = await transform(hooks, "ses_a", ["You are OpenCode."]);
    const second = await transform(hooks, "ses_a", ["You are OpenCode."]);
    expect(first[0]).toBe("You are OpenCode.");
    expect(first).toHaveLength(2);
    expect(first[1]).toBe(second[1]);
    expect(first[1]).toBe(systemGuidance({ wikiMode: true, memory: true }));
  });

  it("keeps a session's text even when the wiki setting changes mid-session", async () => {
    const root = tempRoot();
    const { ws, state } = makeWorkspace(root);
    await ws.engine();
    const hooks = createRagHooks(ws);
    const before = await transform(hooks, "ses_b", ["base"]);
    state.config = configWith({ wikiMode: { enabled: false } });
    const after = await transform(hooks, "ses_b", ["base"]);
    expect(after[1]).toBe(before[1]);
    expect(after[1]).toContain(WIKI_PROTOCOL);
    // A new session sees the new setting.
    const fresh = await transform(hooks, "ses_c", ["base"]);
    expect(fresh[1]).toBe(systemGuidance({ wikiMode: false, memory: true }));
    expect(fresh[1]).not.toContain(WIKI_PROTOCOL);
  });

  it("describes the memory tools when memory is on, and the mandatory rules only with prompt enforcement", () => {
    expect(systemGuidance({ wikiMode: false, memory: false })).toBe(GUIDANCE_TEXT);
    expect(systemGuidance({ wikiMode: false, memory: true })).toContain(MEMORY_GUIDANCE);
    expect(systemGuidance({ wikiMode: false, memory: true })).not.toContain(QUIRK_ENFORCEMENT_RULES);
    expect(systemGuidance({ wikiMode: false, memory: true, memoryEnforcement: true })).toContain(QUIRK_ENFORCEMENT_RULES);
  });

  it("does not add the text twice when it is already present", async () => {
    const { ws } = makeWorkspace(tempRoot());
    const hooks = createRagHooks(ws);
    const once = await transform(hooks, "ses_d", ["base"]);
    const twice = await transform(hooks, "ses_d", once);
    expect(twice).toHaveLength(2);
  });
});

describe("guidance already in AGENTS.md", () => {
  it("adds only the other sections when the prompt already carries the tool guidance, once per session", async () => {
    const { ws } = makeWorkspace(tempRoot());
    const hooks = createRagHooks(ws);
    const withAgents = `You are OpenCode.\nInstructions from: AGENTS.md\n${GUIDANCE_TEXT}`;
    const first = await transform(hooks, "ses_g", [withAgents]);
    const again = await transform(hooks, "ses_g", [withAgents]);
    expect(first).toHaveLength(2);
    expect(first[1]).not.toContain(GUIDANCE_TEXT);
    expect(first[1]).toContain(WIKI_PROTOCOL);
    expect(again[1]).toBe(first[1]);
    expect(first.join("\n").split(GUIDANCE_TEXT)).toHaveLength(2);
    // A request of the same session without AGENTS.md still gets the full text.
    const plain = await transform(hooks, "ses_g", ["You are a summarizer."]);
    expect(plain[1]).toContain(GUIDANCE_TEXT);
    // OpenCode's title request gets nothing: the guidance would only cost tokens there.
    const title = await transform(hooks, "ses_g", ["You are a title generator. You output ONLY a thread title."]);
    expect(title).toHaveLength(1);
  });
});
