// A workspace's first index in a process of its own. The plugin's indexer runs in its host's
// process (OpenCode), and a pass leaves its memory there: under Bun, a host that built the index
// of a 9,042-file tree kept 361 MB after it (558 MB at 100k files), where a process that only
// searches that index holds ~150 MB; what stays is the allocators' retained pages, not live
// data. So the first pass, the big one, runs as `opencode-rag index` in a child that ends with
// it; the host's engine then reads the committed index as it reads any other process's, and the
// watcher's passes (a few files each) stay in the host.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../core/engine-types.js";
import { oneLine } from "../core/error-line.js";
import { passChildEnv } from "../core/own-process.js";
import { packageRoot } from "../core/paths.js";

/** How to start a script on the runtime of this process. */
export interface ScriptRuntime {
  command: string;
  env: Record<string, string>;
}

/**
 * Node's binary under Node. Under Bun, its binary: under OpenCode that is OpenCode's own
 * executable, which runs a script as Bun when BUN_BE_BUN is set (a plain `bun` ignores it).
 */
export function ownRuntime(): ScriptRuntime {
  return { command: process.execPath, env: process.versions.bun ? { BUN_BE_BUN: "1" } : {} };
}

/** The installed package's CLI, or null where the package is not laid out (a bundle copied alone). */
export function bundledCli(): string | null {
  try {
    const cli = join(packageRoot(), "dist", "cli.js");
    return existsSync(cli) ? cli : null;
  } catch {
    return null;
  }
}

export interface PassApart {
  /** True once the child committed its pass; false when it failed or could not start. */
  readonly done: Promise<boolean>;
  /** Ends the child (a pass stopped midway leaves the previous index as it was). */
  stop(): void;
}

/**
 * Runs `opencode-rag index --background` for `root` in a child process on this process's
 * runtime (the workspace's config files are read there as here): a background pass, as the
 * watcher's would be here (lowest priority, within indexing.maxCpuShare of the cores). Null
 * when there is no CLI to run. The child ends itself if this process is killed (LAUNCHER_ENV),
 * and has a pass's allocator settings (PASS_MALLOC_ENV).
 */
export function indexApart(root: string, logger: Logger, options: { runtime?: ScriptRuntime; cli?: string | null } = {}): PassApart | null {
  const cli = options.cli === undefined ? bundledCli() : options.cli;
  if (!cli) return null;
  const runtime = options.runtime ?? ownRuntime();
  const started = Date.now();
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(runtime.command, [cli, "index", "--background"], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
      env: passChildEnv(runtime.env),
      windowsHide: true,
    });
  } catch (err) {
    logger.error("the first index could not start in a process of its own; indexing here", { error: oneLine(err) });
    return null;
  }
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const done = new Promise<boolean>((resolve) => {
    child.once("error", (err) => {
      logger.error("the first index could not start in a process of its own; indexing here", { error: oneLine(err) });
      resolve(false);
    });
    child.once("exit", (code, signal) => {
      if (code === 0) {
        logger.info("first index done in a process of its own", { pid: child.pid, durationMs: Date.now() - started });
        resolve(true);
        return;
      }
      const lastLine = stderr.trim().split("\n").at(-1) ?? "";
      logger.error("the first index in a process of its own failed; indexing here", { pid: child.pid, code, signal, stderr: lastLine });
      resolve(false);
    });
  });
  return { done, stop: () => void child.kill("SIGTERM") };
}
