// Big passes in a process of their own. A pass leaves what it used with its process: the
// allocators keep their pages, not live data. A host that serves searches for hours (OpenCode,
// with the plugin; `index --watch`) would keep a big pass's memory for all of them: under Bun a
// host that built the index of a 9,042-file tree kept 361 MB after it (558 MB at 100k files),
// and one that followed a 490-file branch switch in a 2,200-file tree 260 MB, where searching
// alone holds ~140 MB. So a watcher hands a pass over APART_ABOVE_BYTES of changed files (a first
// index, a rebuild, a branch switch), or one whose commit would rewrite the table (compaction),
// to `opencode-rag index` in a child that ends with it, and reads the committed index as it
// reads any other process's; edits stay in the host.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { IndexSummary, Logger, PassApart, PassesApart } from "../engine-types.js";
import { oneLine } from "../error-line.js";
import { passChildEnv } from "../own-process.js";
import { packageRoot } from "../paths.js";

/**
 * Changed files' bytes from which a watcher's pass runs apart. What a Bun host kept after one
 * pass over a 2,200-file tree: 0.4 MB +64 MB, 2.3 MB +89 MB, 5.6 MB +120 MB, 7.7 MB +169 MB; the
 * first part any first changing pass costs, the rest grows with the pass. A child costs ~1 s of
 * start-up and a walk of the tree, small beside a pass of a few MB.
 */
export const APART_ABOVE_BYTES = 2 * 1024 * 1024;

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

export interface PassesApartOptions {
  /** The config file the host's engine read (`--config`); absent: the workspace's own. */
  configPath?: string;
  runtime?: ScriptRuntime;
  /** The CLI to run; default the package's own (null: none). */
  cli?: string | null;
  aboveBytes?: number;
}

/**
 * Runs passes as `opencode-rag index --background --json [--paths-from -]` for `root` in a child on this
 * process's runtime, which reads the workspace's config as the host did: a background pass, as
 * the watcher's would be here (lowest priority, within indexing.maxCpuShare of the cores). The
 * child ends itself if this process is killed, and has a pass's allocator settings
 * (passChildEnv). Null when there is no CLI to run.
 */
export function passesApart(root: string, options: PassesApartOptions = {}): PassesApart | null {
  const cli = options.cli === undefined ? bundledCli() : options.cli;
  if (!cli) return null;
  const runtime = options.runtime ?? ownRuntime();
  const args = [cli, "index", "--background", "--json", ...(options.configPath ? ["--config", options.configPath] : [])];
  return {
    aboveBytes: options.aboveBytes ?? APART_ABOVE_BYTES,
    run: ({ force, onlyPaths }, logger) => {
      if (force) return startChild(root, runtime, [...args, "--force"], null, logger);
      // The watcher's paths go to the child's stdin, one a line (`index --paths-from -`), so that
      // it does not walk the workspace again; a name holding a line break cannot go that way.
      const lines = onlyPaths && !onlyPaths.some((p) => /[\r\n]/.test(p)) ? onlyPaths : null;
      return startChild(root, runtime, lines ? [...args, "--paths-from", "-"] : args, lines, logger);
    },
  };
}

function startChild(root: string, runtime: ScriptRuntime, args: string[], paths: string[] | null, logger: Logger): PassApart | null {
  const started = Date.now();
  const cannotStart = (err: unknown) => logger.error("a pass could not start in a process of its own; indexing here", { error: oneLine(err) });
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(runtime.command, args, { cwd: root, stdio: [paths ? "pipe" : "ignore", "pipe", "pipe"], env: passChildEnv(runtime.env), windowsHide: true });
  } catch (err) {
    cannotStart(err);
    return null;
  }
  if (paths && child.stdin) {
    // A child that ends before reading them (it failed to start) closes the pipe: its exit says why.
    child.stdin.on("error", () => undefined);
    child.stdin.end(paths.map((p) => p + "\n").join(""));
  }
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => void (stdout += d.toString()));
  child.stderr?.on("data", (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4000)));
  const done = new Promise<IndexSummary | null>((resolve) => {
    child.once("error", (err) => {
      cannotStart(err);
      resolve(null);
    });
    child.once("close", (code, signal) => {
      const summary = code === 0 ? summaryFrom(stdout) : null;
      if (summary) {
        logger.info("pass done in a process of its own", { pid: child.pid, durationMs: Date.now() - started });
        resolve(summary);
        return;
      }
      const lastLine = stderr.trim().split("\n").at(-1) ?? "";
      logger.error("a pass in a process of its own failed; indexing here", { pid: child.pid, code, signal, stderr: lastLine });
      resolve(null);
    });
  });
  return { done, stop: () => void child.kill("SIGTERM") };
}

/** The summary `index --json` prints as its last line. */
function summaryFrom(stdout: string): IndexSummary | null {
  try {
    const summary = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as IndexSummary;
    return typeof summary?.filesIndexed === "number" ? summary : null;
  } catch {
    return null;
  }
}
