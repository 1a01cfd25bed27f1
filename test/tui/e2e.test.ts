// The real OpenCode TUI in tmux with both plugins installed by `opencode-rag init`:
// open the settings with Ctrl+Shift+R, change topK and find it in runtime-overrides.json; press
// Ctrl+Enter on an empty prompt (toast) and on a typed one, and find the retrieved file list in
// what the (fake) LLM received; the sidebar shows the index. Skipped only where tmux is missing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI } from "../fakes/openai.js";
import { acquireIndexLock } from "../../core/indexing/lock.js";
import { readManifest } from "../../core/indexing/manifest.js";
import { clearProgress, writeProgress } from "../../core/indexing/state-files.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";
import { INJECT_CHUNKS_MARKER, INJECT_FILES_MARKER } from "../../opencode-plugin/markers.js";
import { createWorkspace, hasTmux, REPO_ROOT, TmuxTerminal, type Workspace } from "./opencode-harness.js";

const TUI_BUNDLE = join(REPO_ROOT, "dist/tui.js");
const SERVER_BUNDLE = join(REPO_ROOT, "dist/plugin.js");
const CLI_BUNDLE = join(REPO_ROOT, "dist/cli.js");
const ANSWER = "E2E_ANSWER_FROM_FAKE_LLM";

const files = {
  "src/auth/login.ts": [
    "// Checks a user's password and opens a session.",
    "export async function handleLogin(user: string, password: string): Promise<string> {",
    "  const ok = await verifyPassword(user, password);",
    "  if (!ok) throw new Error('invalid credentials');",
    "  return createSession(user);",
    "}",
    "",
    "async function verifyPassword(user: string, password: string): Promise<boolean> {",
    "  return user.length > 0 && password.length > 8;",
    "}",
    "",
    "function createSession(user: string): string {",
    "  return `session-${user}`;",
    "}",
    "",
  ].join("\n"),
  "src/math/vector.ts": "export function dot(a: number[], b: number[]): number {\n  return a.reduce((s, x, i) => s + x * b[i], 0);\n}\n",
  "README.md": "# shop\n\nA small web shop.\n",
};

let llm: FakeHttpServer;
let ws: Workspace;
let term: TmuxTerminal;
const captureDir = process.env.RAG_TUI_CAPTURE_DIR;

function capture(name: string) {
  if (!captureDir) return;
  mkdirSync(captureDir, { recursive: true });
  writeFileSync(join(captureDir, `${name}.txt`), term.screen());
}

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n--- screen ---\n${term.screen()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const userTexts = () =>
  llm.requestsTo("/chat/completions").flatMap((r) =>
    ((r.body?.messages ?? []) as Array<{ role: string; content: unknown }>)
      .filter((m) => m.role === "user")
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))),
  );

beforeAll(async () => {
  if (!hasTmux()) return;
  if (![TUI_BUNDLE, SERVER_BUNDLE, CLI_BUNDLE].every(existsSync)) execFileSync("node", ["esbuild.config.mjs"], { cwd: REPO_ROOT, stdio: "inherit" });
  llm = await startFakeOpenAI({ chat: () => ANSWER });
  ws = createWorkspace({ files, llmBaseUrl: `${llm.url}/v1`, cli: CLI_BUNDLE });
  // Index first, as a user does after `opencode-rag init`; the TUI only reads what it wrote.
  execFileSync("node", [CLI_BUNDLE, "index"], { cwd: ws.project, stdio: "ignore", env: { ...process.env, ...ws.env } });
  term = new TmuxTerminal(ws);
  term.start();
  await term.waitFor("ctrl+p commands", 60_000);
}, 120_000);

afterAll(async () => {
  term?.stop();
  await llm?.close();
  if (ws && !process.env.KEEP_E2E) ws.cleanup();
}, 30_000);

// In CI a missing tmux is a failure, not a skip (.ci/run installs it).
test.skipIf(!hasTmux() && !process.env.CI)(
  "settings key, topK saved, Ctrl+Enter injects the file list, sidebar shows the index",
  async () => {
    const stateDir = join(ws.project, ".opencode", "rag_db");
    // `opencode-rag init` registered this very bundle.
    expect(readFileSync(join(ws.project, ".opencode", "tui.json"), "utf8")).toContain(TUI_BUNDLE);

    // The home screen's status line shows the index.
    await term.waitFor((s) => /opencode-rag · \d+ chunks in \d+ files · indexed/.test(s), 30_000);
    capture("home");

    // Settings dialog on Ctrl+Shift+R; change topK to 4.
    term.key("C-S-r");
    await term.waitFor("opencode-rag settings");
    capture("settings-categories");
    term.key("Enter");
    await term.waitFor("Results per search (topK)");
    term.key("Enter");
    await term.waitFor("How many chunks a search returns.");
    term.key("BSpace", "BSpace");
    await term.type("4");
    term.key("Enter");
    await term.waitFor("Saved retrieval.topK = 4");
    capture("settings-retrieval");
    const readOverrides = () => JSON.parse(readFileSync(join(stateDir, "runtime-overrides.json"), "utf8"));
    expect(readOverrides()).toEqual({ retrieval: { topK: 4 } });

    // Rebind "append full chunks" to F6 or F7: the new keys work at once (F7 is used below).
    term.key("Left", "Up", "Enter");
    await term.waitFor("Append related code chunks");
    term.key("Down", "Enter");
    await term.waitFor("alternatives with commas");
    term.key(...Array(20).fill("BSpace"));
    await term.type("f6, f7");
    term.key("Enter");
    await term.waitFor('Saved keybindings.injectChunks = "f6,f7"');

    // The description model picker lists OpenCode's providers; pick the fake one.
    term.key("Left", "Up", "Enter");
    await term.waitFor("Describe chunks with an LLM");
    term.key("Down", "Enter");
    await term.waitFor("Description model");
    await term.waitFor("Fake LLM");
    capture("model-picker");
    await term.type("fake");
    term.key("Enter");
    await term.waitFor("Saved description.provider");
    expect(readOverrides()).toEqual({
      retrieval: { topK: 4 },
      keybindings: { injectChunks: "f6,f7" },
      description: { provider: "openai", model: "fake-model", baseUrl: `${llm.url}/v1` },
    });
    term.key("Escape");
    await term.waitFor((s) => !s.includes("opencode-rag settings"));

    // Empty prompt: a toast, nothing sent.
    term.key("C-Enter");
    await term.waitFor("Type a prompt first");
    expect(llm.requestsTo("/chat/completions").length).toBe(0);

    // Ctrl+Enter on a typed prompt: the server plugin expands the marker into a file list.
    await term.type("where do we check the password at login");
    term.key("C-Enter");
    const text = await until("the prompt to reach the fake LLM", () => userTexts().find((t) => t.includes("check the password")), 60_000);
    expect(text).toContain("src/auth/login.ts");
    expect(text).not.toContain(INJECT_FILES_MARKER);
    await term.waitFor(ANSWER, 30_000);

    // The rebound key (F7, the second alternative) sends the prompt with full chunks of code.
    await term.type("show the code that verifies the password");
    term.key("F7");
    const withChunks = await until("the chunks prompt to reach the fake LLM", () => userTexts().find((t) => t.includes("verifies the password")), 60_000);
    expect(withChunks).toContain("password.length > 8");
    expect(withChunks).not.toContain(INJECT_CHUNKS_MARKER);

    // The session view's sidebar shows what the index holds.
    const read = readManifest(stateDir);
    if (read.status !== "ok") throw new Error(`manifest: ${read.status}`);
    const manifest = read.manifest;
    const screen = await term.waitFor((s) => /RAG index/.test(s) && /Chunks\s+\d/.test(s), 30_000);
    expect(screen).toMatch(new RegExp(`Chunks\\s+${manifest.chunkCount}\\b`));
    const indexedFiles = Object.values(manifest.files).filter((f) => !f.skipped).length;
    expect(screen).toMatch(new RegExp(`Files\\s+${indexedFiles}\\b`));
    capture("session-sidebar");

    // While a pass runs (lock held, progress written with the core's own writers, as the
    // indexer does), the sidebar shows its progress, and drops it when the pass ends.
    const lock = await until("the index lock", () => {
      try {
        return acquireIndexLock(stateDir);
      } catch {
        return null; // the server's background pass holds it: wait
      }
    }, 60_000);
    try {
      const at = new Date().toISOString();
      writeProgress(stateDir, { pid: process.pid, startedAt: at, updatedAt: at, phase: "embedding", filesDone: 7, filesTotal: 20, chunksDone: 30 });
      await term.waitFor("Indexing 7/20 files", 15_000);
      capture("session-sidebar-indexing");
    } finally {
      clearProgress(stateDir);
      lock.release();
    }
    await term.waitFor((s) => !s.includes("Indexing 7/20"), 15_000);

    // A chunking change needs a re-index: the dialog says so, and r runs a pass that rebuilds
    // with the new setting (the manifest's chunking fingerprint changes).
    const fingerprint = () => JSON.parse(readFileSync(join(stateDir, "manifest.json"), "utf8")).chunkingFingerprint as string;
    const before = fingerprint();
    term.key("C-S-r");
    await term.waitFor("opencode-rag settings");
    term.key("Down", "Down", "Enter");
    await term.waitFor("Overlap lines");
    term.key("Enter");
    await term.waitFor("Lines shared by neighbouring fallback chunks.");
    term.key("BSpace", "BSpace", "BSpace");
    await term.type("12");
    term.key("Enter");
    await term.waitFor("chunking.overlapLines changed: the index must be rebuilt.");
    await term.waitFor("Press r to re-index now.");
    await term.type("r");
    await term.waitFor("Re-index started");
    await until("the re-index pass to commit", () => fingerprint() !== before, 90_000);
    term.key("Escape");
  },
  240_000,
);
