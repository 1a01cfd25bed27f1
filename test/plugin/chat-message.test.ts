import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countTokens } from "../../core/telemetry/tokens.js";
import { INJECT_CHUNKS_MARKER, INJECT_FILES_MARKER } from "../../opencode-plugin/markers.js";
import { createRagHooks } from "../../opencode-plugin/server.js";
import { chunk, configWith, makeWorkspace, tempRoot } from "./helpers.js";

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

type Part = { id: string; sessionID: string; messageID: string; type: string; text: string; synthetic?: boolean };

function userMessage(text: string, sessionID = "ses_1", messageID = "msg_u1") {
  return {
    message: { id: messageID, sessionID, role: "user" },
    parts: [{ id: "prt_0001", sessionID, messageID, type: "text", text }] as Part[],
  };
}

const results = [
  { chunk: chunk("src/auth/session.ts", 10, 42, "export function expire() {}"), score: 0.9 },
  { chunk: chunk("src/auth/session.ts", 50, 60, "export function renew() {}"), score: 0.7 },
  { chunk: chunk("src/db/pool.ts", 1, 20, "export class Pool {}"), score: 0.8 },
];

function setup(state: Parameters<typeof makeWorkspace>[1] = {}, openError?: Error) {
  const root = tempRoot();
  roots.push(root);
  const made = makeWorkspace(root, { results, ...state }, openError);
  return { ...made, root, hooks: createRagHooks(made.ws) };
}

describe("chat.message injection", () => {
  it("expands the files marker into a synthetic part with a file list, and strips the marker", async () => {
    const { hooks } = setup();
    const out = userMessage(`How do sessions expire?\n\n${INJECT_FILES_MARKER}`);
    await hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never);
    expect(out.parts[0].text).toBe("How do sessions expire?");
    expect(out.parts).toHaveLength(2);
    const added = out.parts[1];
    expect(added).toMatchObject({ type: "text", synthetic: true, sessionID: "ses_1", messageID: "msg_u1" });
    expect(added.id).toMatch(/^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(added.text).toBe(
      "Files related to this message (opencode-rag):\nsrc/auth/session.ts (typescript, lines 10-42, 50-60)\nsrc/db/pool.ts (typescript, lines 1-20)",
    );
  });

  it("appends full chunks for the chunks marker within openCode.injectTokenBudget", async () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ chunk: chunk(`src/m${i}.ts`, 1, 40, Array.from({ length: 40 }, (_, j) => `export const item${j} = load(${j});`).join("\n")), score: 0.9 }));
    const { hooks } = setup({ results: many, config: configWith({ openCode: { injectTokenBudget: 500, maxContextChunks: 5 } }) });
    const out = userMessage(`explain ${INJECT_CHUNKS_MARKER}`);
    await hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never);
    const added = out.parts[1].text;
    expect(added).toContain("Code related to this message (opencode-rag):\n\n### src/m0.ts:1-40 (typescript)\n```typescript");
    expect(countTokens(added)).toBeLessThanOrEqual(500);
    expect(added).toMatch(/more chunk\(s\) left out/);
  });

  it("queries with the last assistant answer followed by the prompt", async () => {
    const { hooks, state } = setup();
    await hooks.event!({ event: { type: "message.updated", properties: { info: { id: "msg_a1", sessionID: "ses_1", role: "assistant" } } } } as never);
    await hooks.event!({ event: { type: "message.part.updated", properties: { part: { id: "prt_a", sessionID: "ses_1", messageID: "msg_a1", type: "text", text: "The pool is created in db/pool.ts." } } } } as never);
    await hooks["chat.message"]!({ sessionID: "ses_1" } as never, userMessage(`and who closes it? ${INJECT_FILES_MARKER}`) as never);
    expect(state.searches[0].query).toBe("The pool is created in db/pool.ts.\nand who closes it?");
  });

  it("does nothing without a marker, and appends a file list to every message with openCode.autoInject", async () => {
    const plain = setup();
    const out = userMessage("just chatting");
    await plain.hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never);
    expect(out.parts).toHaveLength(1);
    expect(plain.state.searches).toHaveLength(0);

    const auto = setup({ config: configWith({ openCode: { autoInject: true } }) });
    await auto.ws.engine();
    const out2 = userMessage("how do sessions expire");
    await auto.hooks["chat.message"]!({ sessionID: "ses_1" } as never, out2 as never);
    expect(out2.parts[1].text).toContain("src/auth/session.ts (typescript, lines 10-42, 50-60)");
  });

  it("logs each retrieval with chunk count, tokens, top score and latency", async () => {
    const { hooks, ws } = setup();
    await hooks["chat.message"]!({ sessionID: "ses_log" } as never, userMessage(`q ${INJECT_FILES_MARKER}`, "ses_log") as never);
    const lines = readFileSync(join(ws.stateDir, "eval-sessions", "ses_log.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const retrieval = lines.find((l) => l.type === "retrieval");
    expect(retrieval).toMatchObject({ source: "inject-files", chunkCount: 2, topScore: 0.9 });
    expect(retrieval.contextTokens).toBeGreaterThan(10);
    expect(typeof retrieval.latencyMs).toBe("number");
  });

  it("never throws into OpenCode: a failing search leaves the message as typed, minus the marker", async () => {
    const { hooks } = setup({ failSearch: new Error("store is locked") });
    const out = userMessage(`hello ${INJECT_FILES_MARKER}`);
    await expect(hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never)).resolves.toBeUndefined();
    expect(out.parts.map((p) => p.text)).toEqual(["hello"]);
    const broken = setup({}, new Error("config broken"));
    const out2 = userMessage(`hello ${INJECT_FILES_MARKER}`);
    await expect(broken.hooks["chat.message"]!({ sessionID: "ses_1" } as never, out2 as never)).resolves.toBeUndefined();
    await expect(broken.hooks.event!({ event: null } as never)).resolves.toBeUndefined();
  });
});

describe("event log", () => {
  it("writes every event of a session to its JSONL file", async () => {
    const { hooks, ws } = setup();
    await hooks.event!({ event: { type: "session.idle", properties: { sessionID: "ses_ev" } } } as never);
    await hooks.event!({ event: { type: "message.updated", properties: { info: { id: "m", sessionID: "ses_ev", role: "user" } } } } as never);
    const types = readFileSync(join(ws.stateDir, "eval-sessions", "ses_ev.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).eventType);
    expect(types).toEqual(["session.idle", "message.updated"]);
  });
});

describe("file list format", () => {
  it("merges ranges a blank line apart, keeps real gaps, and names images without lines", async () => {
    const { formatFileList } = await import("../../opencode-plugin/injection.js");
    const lines = formatFileList([
      { chunk: chunk("src/a.ts", 1, 6, "x"), score: 0.9 },
      { chunk: chunk("src/a.ts", 8, 22, "x"), score: 0.8 },
      { chunk: chunk("src/a.ts", 40, 50, "x"), score: 0.7 },
      { chunk: chunk("docs/d.png", 1, 1, "", { kind: "image", language: "image" }), score: 0.5 },
    ]);
    expect(lines).toEqual(["src/a.ts (typescript, lines 1-22, 40-50)", "docs/d.png (image)"]);
  });
});
