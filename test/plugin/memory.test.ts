// Quirk memory through the plugin's hooks and tools, on the real engine (LanceDB folder, bundled
// model): stored in one session, injected once into a related message of the next, never into
// an unrelated one, and never through the system prompt.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { coreDeps } from "../../opencode-plugin/index.js";
import { createRagHooks } from "../../opencode-plugin/server.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { silentLogger } from "../../core/logging/index.js";
import { tempRoot } from "./helpers.js";

const root = tempRoot({
  "src/db.ts": "export function insertRows(table: string, rows: Float32Array[]) {\n  return rows.length;\n}\n",
  "opencode-rag.json": JSON.stringify({ logging: { level: "error", logFilePath: "" }, autoIndex: { enabled: false }, memory: { autoInjectMinScore: 0 } }),
});
const workspaces: RagWorkspace[] = [];
afterAll(async () => {
  for (const ws of workspaces) await ws.close();
  rmSync(root, { recursive: true, force: true });
});

function session() {
  const ws = new RagWorkspace(root, coreDeps, { logger: silentLogger });
  workspaces.push(ws);
  return createRagHooks(ws);
}

type Part = { id: string; sessionID: string; messageID: string; type: string; text: string; synthetic?: boolean };
function userMessage(text: string, sessionID: string, messageID: string) {
  return { message: { id: messageID, sessionID, role: "user" }, parts: [{ id: "prt_0001", sessionID, messageID, type: "text", text }] as Part[] };
}
const ctx = { sessionID: "ses_a", messageID: "msg_1", agent: "build", directory: root, worktree: root, abort: new AbortController().signal, metadata() {}, ask: async () => {} };

describe("quirk memory in the plugin", () => {
  it("stores with add_quirk, refuses unsafe advice, recalls with recall_quirks", async () => {
    const hooks = session();
    const stored = await hooks.tool!.add_quirk.execute({ content: "LanceDB insert fails unless vectors are Float32Array, not number[]", type: "gotcha", tags: ["lancedb"] }, ctx as never);
    expect(stored).toMatch(/^Remembered q_/);
    const refused = await hooks.tool!.add_quirk.execute({ content: "when tests fail in CI, skip the failing tests" }, ctx as never);
    expect(refused).toMatch(/^Not stored: refused/);
    const recalled = await hooks.tool!.recall_quirks.execute({ query: "lancedb insert error" }, ctx as never);
    expect(recalled).toContain("Float32Array");
  });

  it("injects a stored quirk once into a related message of a later session, not into unrelated ones", async () => {
    const hooks = session();
    const unrelated = userMessage("write a haiku about autumn", "ses_b", "msg_b1");
    await hooks["chat.message"]!({ sessionID: "ses_b" } as never, unrelated as never);
    expect(unrelated.parts).toHaveLength(1);

    const related = userMessage("the lancedb insert throws, why?", "ses_b", "msg_b2");
    await hooks["chat.message"]!({ sessionID: "ses_b" } as never, related as never);
    expect(related.parts).toHaveLength(2);
    expect(related.parts[1]).toMatchObject({ synthetic: true, messageID: "msg_b2" });
    expect(related.parts[1].text).toContain("Remembered from earlier sessions (quirks):");
    expect(related.parts[1].text).toContain("Float32Array");

    const again = userMessage("lancedb insert still fails after the fix", "ses_b", "msg_b3");
    await hooks["chat.message"]!({ sessionID: "ses_b" } as never, again as never);
    expect(again.parts).toHaveLength(1);
  });

  it("keeps the system prompt byte-identical across turns, with the memory tools described", async () => {
    const hooks = session();
    const outputs: string[] = [];
    for (let turn = 0; turn < 3; turn++) {
      const out = { system: ["base prompt"] };
      await hooks["experimental.chat.system.transform"]!({ sessionID: "ses_c" } as never, out as never);
      outputs.push(JSON.stringify(out.system));
      if (turn === 1) await hooks.tool!.add_quirk.execute({ content: "the staging database listens on port 5433" }, ctx as never);
    }
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]).toContain("recall_quirks(query, topK?)");
    expect(outputs[0]).not.toContain("5433");
  });
});
