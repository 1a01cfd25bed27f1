// Starts an index pass from the TUI in a separate process (the package's own CLI), so the
// OpenCode UI never waits on it. The store's lock keeps it from overlapping the server plugin's
// background indexer; the sidebar follows its progress file.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** dist/cli.js: beside this bundle (dist/tui.js), or in dist/ when run from the sources (tests). */
export function cliPath(): string {
  const candidates = [new URL("./cli.js", import.meta.url), new URL("../dist/cli.js", import.meta.url)].map((u) => fileURLToPath(u));
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

/** Whether this process is Bun (OpenCode's runtime), whose binary can run the CLI itself. */
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

function run(command: string, args: string[], root: string, env: NodeJS.ProcessEnv, onFail: (err: Error) => void): void {
  const child = spawn(command, args, { cwd: root, detached: true, stdio: "ignore", env });
  child.on("error", onFail);
  child.unref();
}

/**
 * Runs `opencode-rag index` in `root` with Node; where no `node` is on PATH, with the running
 * Bun (inside OpenCode: its own binary, told to act as Bun). Reports a one-line error if neither starts.
 */
export function startReindex(root: string, onError: (message: string) => void): void {
  const cli = cliPath();
  if (!existsSync(cli)) {
    onError(`cannot re-index: ${cli} is missing; run "npx opencode-rag index" in a terminal`);
    return;
  }
  const giveUp = (err: Error) => onError(`cannot start the indexer (${err.message}); run "npx opencode-rag index" in a terminal`);
  try {
    run("node", [cli, "index"], root, process.env, (err) => {
      if (isBun) run(process.execPath, [cli, "index"], root, { ...process.env, BUN_BE_BUN: "1" }, giveUp);
      else giveUp(err);
    });
  } catch (err) {
    giveUp(err as Error);
  }
}
