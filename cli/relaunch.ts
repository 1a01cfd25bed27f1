// A command that may run big index passes (`index` of a new workspace, `--force`, `--watch`,
// `mcp`) runs them in a child process started with the allocator settings of such a process
// (PASS_MALLOC_ENV), because glibc reads them only when a process starts. This process stays
// as a thin launcher: it hands its terminal and pipes to the child, forwards the signals a
// terminal does not deliver to the child itself, and ends the way the child ended.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { isatty } from "node:tty";
import { loadConfig } from "../core/config/load.js";
import { manifestPath } from "../core/indexing/manifest.js";
import { LAUNCHER_ENV, PASS_MALLOC_ENV, passChildEnv } from "../core/own-process.js";
/** How often a relaunched child checks that its launcher still runs. */
const LAUNCHER_CHECK_MS = 1000;
/**
 * An `index` of a workspace of at most this many files runs where it is. The child's allocator
 * settings save ~20-25 MB of peak RSS at 150 to 3,000 files (~45 MB at 9,000), while the
 * launcher waiting for it holds ~47 MB and its start costs ~0.13 s.
 */
export const RELAUNCH_ABOVE_FILES = 5000;

/**
 * Whether this invocation should run in a relaunched child: on Linux (glibc's settings mean
 * nothing elsewhere), not already relaunched, not under a debugger, not where the user chose the
 * allocator's settings themselves, and a command whose passes may be big: `mcp`, `index
 * --watch`, and an `index --force` or an `index` of a workspace with no index yet where its
 * config puts it, of more than RELAUNCH_ABOVE_FILES files. A plain `index` of an indexed
 * workspace (most often a no-op, or a few files) runs where it is: a second process start
 * (~0.1 s) would cost it more than the allocator saves.
 */
export function wantsRelaunch(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, platform: string = process.platform, cwd: string = process.cwd()): boolean {
  const command = argv[0];
  if (platform !== "linux" || (command !== "index" && command !== "mcp")) return false;
  if (env[LAUNCHER_ENV] !== undefined) return false;
  // Under a debugger the work must stay in the process it attached to.
  if (process.execArgv.some((a) => a.startsWith("--inspect"))) return false;
  if (!Object.keys(PASS_MALLOC_ENV).every((name) => env[name] === undefined)) return false;
  if (command === "mcp" || argv.includes("--watch")) return true;
  const workspace = workspaceOf(argv, cwd);
  // A config that cannot be read: the command names the problem, in this process.
  if (!workspace) return false;
  if (!argv.includes("--force") && existsSync(manifestPath(workspace.stateDir))) return false;
  return holdsMoreFiles(workspace.root, workspace.config.indexing.excludeDirs, RELAUNCH_ABOVE_FILES);
}

/**
 * The workspace in `cwd` as its config (`--config`, or the workspace's file) describes it: its
 * root, settings and state folder (a custom `vectorStore.path`, or a shared index's local
 * state); null when the config cannot be read.
 */
function workspaceOf(argv: readonly string[], cwd: string): ReturnType<typeof loadConfig> | null {
  const configPath = configOption(argv);
  try {
    return loadConfig({ root: cwd, configPath: configPath === undefined ? undefined : resolve(cwd, configPath) });
  } catch {
    return null;
  }
}

/**
 * Whether the folder holds more than `limit` files, counted without ignore files and without
 * following links (so an upper bound of what a pass indexes), in folders not named in
 * `excludeDirs`; stops counting at the limit. An unreadable folder counts as empty.
 */
export function holdsMoreFiles(root: string, excludeDirs: readonly string[], limit: number): boolean {
  const excluded = new Set(excludeDirs);
  const folders = [root];
  let files = 0;
  while (folders.length > 0) {
    const folder = folders.pop()!;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!excluded.has(e.name)) folders.push(join(folder, e.name));
      } else if (e.isFile() && ++files > limit) return true;
    }
  }
  return false;
}

/** The value of the global `--config` option (hoisted behind the command: cli/command.ts). */
function configOption(argv: readonly string[]): string | undefined {
  const i = argv.indexOf("--config");
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith("--config="))?.slice("--config=".length);
}

/**
 * Runs this command line again in a child with PASS_MALLOC_ENV and waits for it. Resolves to
 * its exit code; a child killed by a signal takes this process down with the same signal.
 * Resolves to null when the child could not be started (the caller then runs the command here).
 */
export function runRelaunched(): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...process.argv.slice(2)], {
      stdio: "inherit",
      env: passChildEnv(),
    });
    // Ctrl-C in a terminal reaches the child too (same process group); forwarding it would
    // deliver it twice, and a second Ctrl-C means "stop now" to a watching pass. A signal sent
    // to this pid alone (a process manager, an MCP client, a test harness) is passed on.
    // isatty, not process.stdin: that would open a stream on the descriptor the child reads.
    const inTerminal = isatty(0) || isatty(1) || isatty(2);
    const forwarded: NodeJS.Signals[] = inTerminal ? ["SIGTERM", "SIGHUP"] : ["SIGINT", "SIGTERM", "SIGHUP"];
    const forward = (signal: NodeJS.Signals) => void child.kill(signal);
    const ignore = () => undefined;
    for (const s of forwarded) process.on(s, forward);
    if (inTerminal) process.on("SIGINT", ignore);
    const stopListening = () => {
      for (const s of forwarded) process.off(s, forward);
      process.off("SIGINT", ignore);
    };
    child.once("error", () => {
      stopListening();
      resolve(null);
    });
    child.once("exit", (code, signal) => {
      stopListening();
      if (signal) process.kill(process.pid, signal);
      resolve(code ?? 1);
    });
  });
}

/**
 * In a relaunched child: ends this process (as a SIGTERM would: a watching pass stops cleanly)
 * once its launcher is gone, which a SIGKILL of the launcher leaves no other way to learn.
 */
export function followLauncher(env: NodeJS.ProcessEnv = process.env): void {
  const launcher = Number(env[LAUNCHER_ENV]);
  if (!Number.isInteger(launcher) || launcher <= 0) return;
  // Grandchildren (a git, a hook) are not this launcher's children.
  delete env[LAUNCHER_ENV];
  setInterval(() => {
    if (process.ppid !== launcher) process.kill(process.pid, "SIGTERM");
  }, LAUNCHER_CHECK_MS).unref();
}
