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

/** Runs `opencode-rag index` in `root`; calls back with a one-line error if it cannot start. */
export function startReindex(root: string, onError: (message: string) => void): void {
  const cli = cliPath();
  if (!existsSync(cli)) {
    onError(`cannot re-index: ${cli} is missing; run "npx opencode-rag index" in a terminal`);
    return;
  }
  try {
    const child = spawn("node", [cli, "index"], { cwd: root, detached: true, stdio: "ignore" });
    child.on("error", (err) => onError(`cannot start "node ${cli} index": ${err.message}; run "npx opencode-rag index" in a terminal`));
    child.unref();
  } catch (err) {
    onError(`cannot start the indexer: ${(err as Error).message}`);
  }
}
