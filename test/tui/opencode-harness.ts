// Drives the real `opencode` TUI in a detached tmux session, like a person at a terminal:
// an isolated project + HOME per run, keys sent through tmux, the screen read back as text.
// Waits always poll the screen for expected text (no blind sleeps).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fakeLlmOpenCodeConfig, seedConfigDir } from "../e2e/opencode.js";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const OPENCODE_BIN = join(REPO_ROOT, "node_modules/opencode-linux-x64/bin/opencode");

export function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"]).status === 0;
}

export interface WorkspaceOptions {
  /** Files of the project (relative path → content); committed to a fresh git repo. */
  files: Record<string, string>;
  /** Base URL (…/v1) of the fake OpenAI-compatible LLM. */
  llmBaseUrl: string;
  /** The package's CLI bundle: its `init` installs both plugins the way a user does. */
  cli: string;
}

export interface Workspace {
  dir: string;
  project: string;
  home: string;
  env: Record<string, string>;
  cleanup(): void;
}

/**
 * OpenCode npm-installs @opencode-ai/plugin into every config dir unless node_modules exists and
 * package-lock.json's root lists every dependency: seed both dirs so runs stay offline and fast.
 */

export function createWorkspace(options: WorkspaceOptions): Workspace {
  const dir = mkdtempSync(join(tmpdir(), "rag-tui-e2e-"));
  const project = join(dir, "project");
  const home = join(dir, "home");
  mkdirSync(project, { recursive: true });
  for (const [rel, content] of Object.entries(options.files)) {
    mkdirSync(dirname(join(project, rel)), { recursive: true });
    writeFileSync(join(project, rel), content);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e", ...args], { cwd: project, stdio: "ignore" });
  git("init", "-q", ".");
  git("add", "-A");
  git("commit", "-qm", "fixture");

  seedConfigDir(join(project, ".opencode"));
  seedConfigDir(join(home, ".config", "opencode"));
  // .opencode/plugins/rag-plugin.js and .opencode/tui.json, exactly as users get them.
  execFileSync("node", [options.cli, "init"], { cwd: project, stdio: "ignore" });
  writeFileSync(join(project, "opencode.json"), JSON.stringify(fakeLlmOpenCodeConfig(options.llmBaseUrl), null, 2));
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local/state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_SHARE: "1",
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANCEDB_LOG: "error",
  };
  return { dir, project, home, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class TmuxTerminal {
  readonly session = `rag-tui-${process.pid}-${Date.now().toString(36)}`;

  constructor(
    private readonly ws: Workspace,
    private readonly cols = 160,
    private readonly rows = 45,
  ) {}

  /** Starts `opencode` in the project; its stderr log goes to <dir>/tui.log. */
  start(): void {
    const envPart = Object.entries(this.ws.env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
    const script = join(this.ws.dir, "start.sh");
    writeFileSync(
      script,
      `#!/usr/bin/env bash\ncd ${shellQuote(this.ws.project)}\nexec env -i ${envPart} ${shellQuote(OPENCODE_BIN)} --print-logs --log-level DEBUG 2>> ${shellQuote(join(this.ws.dir, "tui.log"))}\n`,
      { mode: 0o755 },
    );
    execFileSync("tmux", ["new-session", "-d", "-s", this.session, "-x", String(this.cols), "-y", String(this.rows), `${script}; echo OPENCODE_EXITED; sleep 600`]);
  }

  screen(): string {
    const r = spawnSync("tmux", ["capture-pane", "-p", "-t", this.session], { encoding: "utf8" });
    return r.stdout ?? "";
  }

  /** Polls the screen until `expected` shows (or the predicate holds); throws with the screen on timeout. */
  async waitFor(expected: string | ((screen: string) => boolean), timeoutMs = 30_000): Promise<string> {
    // Text may wrap inside a dialog: also match with line breaks and indentation collapsed.
    const flat = (s: string) => s.replace(/\s+/g, " ");
    const test = typeof expected === "string" ? (s: string) => s.includes(expected) || flat(s).includes(flat(expected)) : expected;
    const deadline = Date.now() + timeoutMs;
    let last = "";
    while (Date.now() < deadline) {
      last = this.screen();
      if (test(last)) return last;
      if (last.includes("OPENCODE_EXITED")) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`screen never showed ${typeof expected === "string" ? JSON.stringify(expected) : "the expected state"}:\n${last}`);
  }

  /** Types text one character at a time, as a person would (fast input into popups can drop keys). */
  async type(text: string): Promise<void> {
    for (const ch of text) {
      execFileSync("tmux", ["send-keys", "-t", this.session, "-l", "--", ch]);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Sends tmux key names: Enter, Escape, Down, C-Enter, C-M-Enter, C-S-r, BSpace … */
  key(...names: string[]): void {
    for (const name of names) execFileSync("tmux", ["send-keys", "-t", this.session, name]);
  }

  stop(): void {
    spawnSync("tmux", ["kill-session", "-t", this.session]);
  }
}
