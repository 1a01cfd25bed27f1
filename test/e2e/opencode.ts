// Runs the real OpenCode binary headless against a temp project: isolated HOME/XDG dirs, the
// fake LLM as the only provider, config dirs seeded so OpenCode does not npm-install anything.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

export const REPO = resolve(import.meta.dirname, "../..");
export const OPENCODE_BIN = join(REPO, "node_modules/opencode-linux-x64/bin/opencode");
export const CLI = join(REPO, "dist/cli.js");
export const FIXTURE = join(REPO, "test/fixtures/e2e");

/** The @opencode-ai/plugin version OpenCode wants in every config dir (its own version). */
function pluginVersion(): string {
  return JSON.parse(readFileSync(join(REPO, "node_modules/@opencode-ai/plugin/package.json"), "utf8")).version;
}

/**
 * OpenCode npm-installs @opencode-ai/plugin into each config dir unless node_modules exists and
 * package-lock.json's root lists every dependency of package.json (otherwise ~9 s online, ~70 s
 * of retries offline). Seed that state, pointing node_modules at the repository's.
 */
export function seedConfigDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const deps = { "@opencode-ai/plugin": pluginVersion() };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ dependencies: deps }, null, 2) + "\n");
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify({ name: "opencode-config", lockfileVersion: 3, requires: true, packages: { "": { dependencies: deps } } }, null, 2) + "\n");
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, ".gitignore"), "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore\n");
}

/** opencode.json with the fake LLM at `baseURL` as the only provider; LSP, formatters and snapshots off. */
export function fakeLlmOpenCodeConfig(baseURL: string): object {
  return {
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake LLM",
        options: { baseURL, apiKey: "fake-key" },
        models: { "fake-model": { name: "Fake Model", tool_call: true, limit: { context: 200000, output: 8192 } } },
      },
    },
    model: "fake/fake-model",
    small_model: "fake/fake-model",
    enabled_providers: ["fake"],
    autoupdate: false,
    share: "disabled",
    lsp: false,
    formatter: false,
    // OpenCode's per-step git snapshots of the project cost seconds and test nothing of ours.
    snapshot: false,
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** `--format json` events. */
  events: Array<{ type: string; [k: string]: unknown }>;
}

export interface ProjectOptions {
  /** Written to opencode-rag.json (omit for none); a string is written as is (broken configs). */
  ragConfig?: object | string;
  /** Run `opencode-rag index` before OpenCode starts. */
  index?: boolean;
  /**
   * How opencode-rag gets into the project's node_modules: "link" (a symlink to this checkout)
   * or "copy" (the published files — package.json, dist, models — copied, dependencies beside
   * them as npm would hoist them), which proves the bundle finds its grammars and model wherever
   * the package is installed.
   */
  install?: "link" | "copy";
  /** Extra files written into the project (relative path -> content). */
  files?: Record<string, string | Buffer>;
}

export class E2EProject {
  readonly base = mkdtempSync(join(tmpdir(), "rag-e2e-"));
  readonly dir = join(this.base, "project");
  readonly home = join(this.base, "home");

  constructor(private readonly llmPort: number) {}

  env(): NodeJS.ProcessEnv {
    const h = this.home;
    return {
      PATH: process.env.PATH,
      HOME: h,
      XDG_CONFIG_HOME: join(h, ".config"),
      XDG_DATA_HOME: join(h, ".local/share"),
      XDG_CACHE_HOME: join(h, ".cache"),
      XDG_STATE_HOME: join(h, ".local/state"),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_SHARE: "1",
      // Nothing may reach a registry; a stray install attempt fails fast instead of hanging.
      npm_config_registry: "http://127.0.0.1:9/",
      LANCEDB_LOG: "error",
      ONNXRUNTIME_NODE_INSTALL_CUDA: "skip",
    };
  }

  /** Copies the fixture, installs opencode-rag into node_modules (a link to this checkout), runs init. */
  setup(options: ProjectOptions = {}): this {
    for (const built of [CLI, join(REPO, "dist/plugin.js")]) {
      if (!existsSync(built)) throw new Error(`${built} is missing: build first with \`node esbuild.config.mjs\` (npm test does)`);
    }
    cpSync(FIXTURE, this.dir, { recursive: true });
    for (const [rel, content] of Object.entries(options.files ?? {})) {
      mkdirSync(dirname(join(this.dir, rel)), { recursive: true });
      writeFileSync(join(this.dir, rel), content);
    }
    mkdirSync(join(this.dir, "node_modules"), { recursive: true });
    if (options.install === "copy") this.installCopy();
    else symlinkSync(REPO, join(this.dir, "node_modules/opencode-rag"), "dir");
    writeFileSync(join(this.dir, "package.json"), JSON.stringify({ name: "sample-service", private: true }) + "\n");
    writeFileSync(join(this.dir, ".gitignore"), "node_modules\n");
    if (options.ragConfig !== undefined) {
      writeFileSync(join(this.dir, "opencode-rag.json"), typeof options.ragConfig === "string" ? options.ragConfig : JSON.stringify(options.ragConfig, null, 2));
    }
    writeFileSync(join(this.dir, "opencode.json"), JSON.stringify(fakeLlmOpenCodeConfig(`http://127.0.0.1:${this.llmPort}/v1`), null, 2));
    const git = (...args: string[]) => spawnSync("git", ["-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e", ...args], { cwd: this.dir });
    git("init", "-q", ".");
    git("add", "-A");
    git("commit", "-qm", "fixture");
    const init = this.cli("init");
    if (init.status !== 0) throw new Error(`opencode-rag init failed: ${init.stderr}`);
    seedConfigDir(join(this.dir, ".opencode"));
    seedConfigDir(join(this.home, ".config/opencode"));
    if (options.index) {
      const idx = this.cli("index");
      if (idx.status !== 0) throw new Error(`opencode-rag index failed (${idx.status}): ${idx.stderr}${idx.stdout}`);
    }
    return this;
  }

  private installCopy(): void {
    const pkg = join(this.dir, "node_modules/opencode-rag");
    mkdirSync(pkg, { recursive: true });
    cpSync(join(REPO, "package.json"), join(pkg, "package.json"));
    const noMaps = (src: string) => !src.endsWith(".map");
    cpSync(join(REPO, "dist"), join(pkg, "dist"), { recursive: true, filter: noMaps });
    cpSync(join(REPO, "models"), join(pkg, "models"), { recursive: true, filter: (src) => !src.includes("/models/.work") });
    for (const dep of readdirSync(join(REPO, "node_modules"))) {
      if (dep.startsWith(".")) continue;
      symlinkSync(join(REPO, "node_modules", dep), join(this.dir, "node_modules", dep), "dir");
    }
    this.cliPath = join(pkg, "dist/cli.js");
  }

  /** The CLI the project runs: the installed package's when copied, else the checkout's. */
  private cliPath = CLI;

  /**
   * `opencode-rag index` without blocking this process: needed when the index pass calls a fake
   * server living in the test process (descriptions), which a synchronous spawn would starve.
   */
  indexAsync(): Promise<void> {
    return new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, [this.cliPath, "index"], { cwd: this.dir, env: { ...process.env, ...this.env() }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        if (code === 0) resolvePromise();
        else reject(new Error(`opencode-rag index failed (${code}): ${out}`));
      });
    });
  }

  cli(...args: string[]) {
    return spawnSync(process.execPath, [this.cliPath, ...args], { cwd: this.dir, env: { ...process.env, ...this.env() }, encoding: "utf8", timeout: 120_000 });
  }

  /** `printf PROMPT | opencode run --format json` (or `--command NAME` with PROMPT as its arguments). */
  run(prompt: string, options: { command?: string; timeoutMs?: number } = {}): Promise<RunResult> {
    const args = ["run", "--format", "json", "--model", "fake/fake-model", "--print-logs", "--log-level", process.env.E2E_LOG_LEVEL ?? "INFO"];
    if (options.command) args.push("--command", options.command);
    return new Promise((resolvePromise) => {
      const child = spawn(OPENCODE_BIN, args, { cwd: this.dir, env: this.env(), stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 150_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        const events = stdout
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => {
            try {
              return JSON.parse(l);
            } catch {
              return null;
            }
          })
          .filter(Boolean);
        resolvePromise({ code, stdout, stderr, events });
      });
      child.stdin.end(prompt);
    });
  }

  cleanup(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}
