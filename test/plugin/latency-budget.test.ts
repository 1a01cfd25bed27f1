// Hooks hold the user's message: while the engine is still opening (the first message of a
// session, a loaded machine), chat.message returns within the latency budget without its
// additions, says so in the log, and adds them again once the engine is there.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import type { Engine, Logger } from "../../core/engine-types.js";
import { INJECT_CHUNKS_MARKER, INJECT_FILES_MARKER } from "../../opencode-plugin/markers.js";
import type { CoreDeps } from "../../opencode-plugin/deps.js";
import { createRagHooks, createServer } from "../../opencode-plugin/server.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { chunk, languageOf, tempRoot, testEngine } from "./helpers.js";

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function slowWorkspace(budgetMs: number, openCode: Record<string, unknown> = {}) {
  const root = tempRoot();
  roots.push(root);
  writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ memory: { latencyBudgetMs: budgetMs }, openCode }));
  let finishOpen!: () => void;
  const opened = new Promise<void>((resolve) => (finishOpen = resolve));
  let engineReady = false;
  const config = structuredClone(DEFAULT_CONFIG);
  config.memory.latencyBudgetMs = budgetMs;
  Object.assign(config.openCode, openCode);
  const state = { results: [{ chunk: chunk("src/auth/session.ts", 10, 42, "export function expire() {}"), score: 0.9 }], status: {}, searches: [], config };
  const deps: CoreDeps = {
    // An engine that opens only when the test says so: a cold start on a busy machine.
    openEngine: async () => {
      await opened;
      engineReady = true;
      return testEngine(root, state) as Engine;
    },
    parseSource: async () => null,
    languageForPath: languageOf,
  };
  const logged: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (msg: string) => void logged.push(msg),
    warn: (msg: string) => void logged.push(msg),
    error: (msg: string) => void logged.push(msg),
  } as unknown as Logger;
  const ws = new RagWorkspace(root, deps, { logger });
  return { ws, hooks: createRagHooks(ws), finishOpen, logged, isReady: () => engineReady };
}

function userMessage(text: string) {
  return {
    message: { id: "msg_u1", sessionID: "ses_1", role: "user" },
    parts: [{ id: "prt_0001", sessionID: "ses_1", messageID: "msg_u1", type: "text", text }] as Array<{ id: string; sessionID: string; messageID: string; type: string; text: string; synthetic?: boolean }>,
  };
}

describe("chat.message latency budget", () => {
  it("returns before the engine has opened, without the automatic file list, and logs the skip", async () => {
    const { ws, hooks, finishOpen, logged, isReady } = slowWorkspace(200, { autoInject: true });
    void ws.engine().catch(() => undefined); // the plugin starts opening at load
    const out = userMessage("How do sessions expire?");
    await hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never);
    expect(isReady()).toBe(false);
    expect(out.parts.map((p) => p.text)).toEqual(["How do sessions expire?"]);
    expect(logged.some((m) => /files injection skipped, over the latency budget/.test(m))).toBe(true);
    expect(logged.some((m) => /memory injection skipped, over the latency budget/.test(m))).toBe(true);

    // Once the engine is open, the next message gets its file list.
    finishOpen();
    await ws.engine();
    const next = userMessage("And renew?");
    await hooks["chat.message"]!({ sessionID: "ses_1" } as never, next as never);
    expect(next.parts[1]?.text).toContain("src/auth/session.ts");
  });

  it("a file list the user asked for waits past the latency budget for an engine still opening", async () => {
    const { ws, hooks, finishOpen, isReady } = slowWorkspace(100, { requestedInjectWaitMs: 10_000 });
    void ws.engine().catch(() => undefined);
    setTimeout(finishOpen, 400); // opens after the automatic budget, within the requested wait
    const out = userMessage(`How do sessions expire? ${INJECT_FILES_MARKER}`);
    await hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never);
    expect(isReady()).toBe(true);
    expect(out.parts[0].text).toBe("How do sessions expire?");
    expect(out.parts[1]?.text).toContain("src/auth/session.ts");
  });

  it("says in the message when requested code could not be attached in time", async () => {
    const { ws, hooks, logged, isReady } = slowWorkspace(100, { requestedInjectWaitMs: 300 });
    void ws.engine().catch(() => undefined);
    const out = userMessage(`How do sessions expire? ${INJECT_CHUNKS_MARKER}`);
    await hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never);
    expect(isReady()).toBe(false);
    expect(out.parts.map((p) => p.text)).toEqual([
      "How do sessions expire?",
      "opencode-rag: the related code chunks could not be attached (the index did not answer within 0.3 s); use search_semantic instead.",
    ]);
    expect(logged.some((m) => /chunks injection skipped/.test(m))).toBe(true);
  });

  it("still answers /wiki at once while the engine is opening", async () => {
    const { hooks, isReady } = slowWorkspace(200);
    const out = userMessage("what does the wiki say about sessions <!-- opencode-rag:wiki -->");
    await hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never);
    expect(isReady()).toBe(false);
    expect(out.parts).toHaveLength(2);
    expect(out.parts[1].text).toMatch(/wiki/i);
  });

  it("starts opening the engine when the plugin loads, with no indexer or memory to do it", async () => {
    const root = tempRoot();
    roots.push(root);
    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ memory: { enabled: false }, autoIndex: { enabled: false } }));
    let opens = 0;
    const deps: CoreDeps = {
      openEngine: async () => {
        opens++;
        return testEngine(root, { results: [], status: {}, searches: [], config: DEFAULT_CONFIG });
      },
      parseSource: async () => null,
      languageForPath: languageOf,
    };
    const hooks = await createServer(deps, { backgroundIndexer: false })({ directory: root, worktree: root } as never);
    expect(opens).toBe(1);
    await hooks.dispose?.();
  });
});
