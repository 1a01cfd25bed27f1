import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { markerFor } from "../../opencode-plugin/markers.js";
import { createRagHooks } from "../../opencode-plugin/server.js";
import { DOC_PROGRESS_FILE } from "../../opencode-plugin/doc-mode.js";
import { configWith, makeWorkspace, tempRoot, writeTree } from "./helpers.js";

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function setup(files: Record<string, string>, config = configWith({ documentationMode: { enabled: true } })) {
  const root = tempRoot(files);
  roots.push(root);
  writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ documentationMode: { enabled: config.documentationMode.enabled }, wikiMode: { enabled: config.wikiMode.enabled } }));
  const made = makeWorkspace(root, { config });
  return { ...made, root, hooks: createRagHooks(made.ws) };
}

async function send(hooks: ReturnType<typeof createRagHooks>, text: string) {
  const out = { message: { id: "msg_1", sessionID: "ses_1" }, parts: [{ id: "prt_1", sessionID: "ses_1", messageID: "msg_1", type: "text", text }] };
  await hooks["chat.message"]!({ sessionID: "ses_1" } as never, out as never);
  return out.parts.slice(1).map((p) => p.text).join("\n");
}

describe("slash commands through the config hook", () => {
  it("adds /rag, /rag-chunks, /doc and /wiki without replacing the user's commands", async () => {
    const { hooks } = setup({});
    const cfg: { command?: Record<string, { template: string }> } = { command: { wiki: { template: "user's own" } } };
    await hooks.config!(cfg as never);
    expect(Object.keys(cfg.command!).sort()).toEqual(["doc", "rag", "rag-chunks", "wiki"]);
    expect(cfg.command!.wiki.template).toBe("user's own");
    expect(cfg.command!.doc.template).toContain(markerFor("doc", "$ARGUMENTS"));
  });

  it("leaves /doc out when documentation mode is off", async () => {
    const { hooks } = setup({}, configWith({}));
    const cfg: { command?: Record<string, unknown> } = {};
    await hooks.config!(cfg as never);
    expect(cfg.command).not.toHaveProperty("doc");
  });
});

describe("/doc", () => {
  const files = {
    "src/auth/login.ts": "export function login() {}\n",
    "src/auth/logout.ts": "export function logout() {}\n",
    "src/db/pool.ts": "export class Pool {}\n",
    "README.md": "# readme\n",
  };

  it("lists undocumented code files grouped by directory, then marks a directory done and persists it", async () => {
    const { hooks, ws } = setup(files);
    await ws.engine();
    const listing = await send(hooks, markerFor("doc", ""));
    expect(listing).toContain("## Documentation — 3 undocumented file(s) in 2 directories (0 done)");
    expect(listing).toContain("### src/auth/ (2 files)\n- src/auth/login.ts\n- src/auth/logout.ts");
    expect(listing).not.toContain("README.md");

    const marked = await send(hooks, markerFor("doc", "src/auth"));
    expect(marked).toContain("Marked `src/auth/` as documented.");
    expect(marked).toContain("1 undocumented file(s) in 1 directory (1 done)");
    expect(marked).not.toContain("login.ts");
    const progress = JSON.parse(readFileSync(join(ws.stateDir, DOC_PROGRESS_FILE), "utf8"));
    expect(Object.keys(progress.documented)).toEqual(["src/auth"]);
  });

  it("rejects a directory that does not exist", async () => {
    const { hooks, ws } = setup(files);
    await ws.engine();
    expect(await send(hooks, markerFor("doc", "src/nope"))).toContain("is not a directory of this workspace");
    expect(existsSync(join(ws.stateDir, DOC_PROGRESS_FILE))).toBe(false);
  });
});

describe("/wiki", () => {
  it("reports status, and hands over lint and seed instructions", async () => {
    const { hooks, root, ws } = setup({});
    await ws.engine();
    expect(await send(hooks, markerFor("wiki", ""))).toContain("No wiki yet (.opencode/wiki/ does not exist)");
    writeTree(root, {
      ".opencode/wiki/index.md": "# Index\n",
      ".opencode/wiki/log.md": "# Log\n\n## 2026-01-01 seed\ncreated pages\n",
      ".opencode/wiki/entities/auth.md": "# Auth\n",
    });
    const status = await send(hooks, markerFor("wiki", "status"));
    expect(status).toContain("- pages: 3 (entities/ 1)");
    expect(status).toContain("- index.md: present");
    expect(status).toContain("## 2026-01-01 seed");
    expect(await send(hooks, markerFor("wiki", "lint"))).toContain("## Wiki lint");
    expect(await send(hooks, markerFor("wiki", "seed"))).toContain("## Wiki seed");
    expect(await send(hooks, markerFor("wiki", "bogus"))).toContain('Unknown /wiki subcommand "bogus"');
  });
});
