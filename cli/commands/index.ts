// `opencode-rag index [--force] [--watch] [--background] [--json] [--paths-from FILE]`: one
// incremental pass (progress bar on a TTY, one summary line otherwise), of the whole workspace or
// of the listed paths; with --watch, keeps the index current until interrupted.
import { UsageError, type Command, type CommandContext } from "../command.js";
import type { IndexProgress } from "../../core/engine-types.js";
import { progressLine, summaryLine, terminalSafe } from "../format.js";
import { IndexBusyError, waitingLine } from "../../core/locking/busy.js";
import { WatcherStoppedError } from "../../core/indexing/pass-env.js";
import { lowerThisThread } from "../../core/indexing/cpu-share.js";
import { plainRebuildReason } from "../../core/errors/plain-errors.js";
import { readPathList } from "./index-paths.js";

/** The CLI's debounce (F7): short, a person is waiting at a terminal. */
const WATCH_DEBOUNCE_MS = 300;

function progressPrinter(ctx: CommandContext): { onProgress?: (p: IndexProgress) => void; done(): void } {
  if (!ctx.interactive) return { done() {} };
  let last = 0;
  let shown = false;
  return {
    onProgress(p) {
      const now = Date.now();
      if (now - last < 100 && p.phase !== "done") return;
      last = now;
      shown = true;
      process.stderr.write(`\r\x1b[2K${progressLine(p)}`);
    },
    done() {
      if (shown) process.stderr.write("\r\x1b[2K");
    },
  };
}

/** How long `index` waits for another process's pass (e.g. the OpenCode plugin's) to end. */
const BUSY_WAIT_MS = 10 * 60 * 1000;
const BUSY_POLL_MS = 500;

/**
 * Runs the pass, waiting while another process holds the store's lock, and saying whose pass it
 * is and until when its lock holds: again whenever that changes (another holder, a refreshed
 * expiry), in place on a terminal.
 */
async function indexWhenFree<T>(ctx: CommandContext, run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  let told = "";
  try {
    for (;;) {
      try {
        return await run();
      } catch (err) {
        if (!(err instanceof IndexBusyError) || Date.now() > deadline) throw err;
        const line = waitingLine(err);
        if (line !== told) {
          if (ctx.interactive) process.stderr.write(`\r\x1b[2K${line}`);
          else ctx.err(line);
          told = line;
        }
        await new Promise((r) => setTimeout(r, BUSY_POLL_MS));
      }
    }
  } finally {
    if (told && ctx.interactive) process.stderr.write("\n");
  }
}

export const indexCommand: Command = {
  name: "index",
  summary: "index the workspace (incremental; --force rebuilds, --watch keeps it current)",
  help: `Usage: opencode-rag index [--force] [--watch] [--background] [--json] [--paths-from FILE]

Indexes the current directory. Unchanged files are skipped without being read.

  --force            drop the index and rebuild it from scratch
  --watch            after the pass, re-index changed files until Ctrl-C
  --background       index as a background indexer does: at the lowest priority, within
                     indexing.maxCpuShare of the cores (--watch always does)
  --json             print the pass's summary as one JSON object
  --paths-from FILE  look only at the files listed in FILE, one path a line relative to
                     the workspace ("-" reads stdin), e.g. from git diff --name-only:
                     changed and new ones are indexed, missing ones leave the index; a
                     line ending in / stands for the files directly in that folder; a
                     folder named without it, or an ignore file, makes it a whole pass`,
  options: {
    force: { type: "boolean" },
    watch: { type: "boolean" },
    background: { type: "boolean" },
    json: { type: "boolean" },
    "paths-from": { type: "string" },
  },
  async run(ctx) {
    // With --watch (or --background: a watcher's big pass, run apart) this process is a
    // background indexer: its threads at low priority, and within indexing.maxCpuShare of the
    // cores, from the first pass on.
    const watching = ctx.values.watch === true;
    if (watching && ctx.values.json === true) throw new UsageError("--json prints one pass's summary; it does not go with --watch");
    const pathsFrom = ctx.values["paths-from"] as string | undefined;
    if (pathsFrom !== undefined && watching) throw new UsageError("--paths-from is one pass over the listed paths; it does not go with --watch");
    if (pathsFrom !== undefined && ctx.values.force === true) throw new UsageError("--force rebuilds every file; it does not go with --paths-from");
    const background = watching || ctx.values.background === true;
    if (background) lowerThisThread();
    const engine = await ctx.engine({ background });
    const onlyPaths = pathsFrom === undefined ? undefined : readPathList(pathsFrom, engine.root);
    // A store that cannot be read now fails the pass below, which says so in a pass's words.
    const status = await engine.status({ countPending: false }).catch(() => null);
    if (status?.keywordOnlyReason) ctx.err(`note: search will be keyword-only: ${status.keywordOnlyReason}`);
    const printer = progressPrinter(ctx);
    let summary;
    try {
      summary = await indexWhenFree(ctx, () => engine.index({ force: ctx.values.force === true, onlyPaths, onProgress: printer.onProgress }));
    } finally {
      printer.done();
    }
    if (summary.rebuildReason) ctx.err(`rebuilt the index: ${plainRebuildReason(summary.rebuildReason)}`);
    if (summary.rebuildReason && ctx.debug) ctx.err(`rebuild reason as found: ${summary.rebuildReason}`);
    // File names come from the workspace: printed escaped, like query's output.
    for (const e of summary.errors.slice(0, 20)) ctx.err(`warning: ${terminalSafe(e.filePath)}: ${terminalSafe(e.error)}`);
    if (summary.errors.length > 20) ctx.err(`warning: ${summary.errors.length - 20} more files could not be indexed (see the log)`);
    for (const w of summary.warnings.slice(0, 20)) ctx.err(`warning: ${terminalSafe(w.filePath)}: ${terminalSafe(w.warning)}`);
    if (summary.warnings.length > 20) ctx.err(`warning: ${summary.warnings.length - 20} more files were indexed as line windows (see the log)`);
    if (ctx.debug) {
      // Which files were left out and why (also in `status --json`).
      const skipped = (await engine.status({ countPending: false })).skipped;
      for (const f of skipped?.files ?? []) ctx.err(`skipped: ${terminalSafe(f.path)}: ${terminalSafe(f.reason)}`);
      if (skipped?.omitted) ctx.err(`skipped: ${skipped.omitted} more files (not listed)`);
    }
    ctx.out(ctx.values.json === true ? JSON.stringify(summary) : summaryLine(summary));
    if (!watching) return 0;

    let stopWaiting: () => void = () => undefined;
    let stoppedBy: Error | null = null;
    // Listening for the signals before the "watching" line: whoever reads it may send one at
    // once, and a signal that arrives before a listener exists ends the process uncleanly.
    const stopped = new Promise<void>((resolve) => {
      // A pending promise does not keep Node alive; this timer does until a signal arrives.
      const keepAlive = setInterval(() => undefined, 1 << 30);
      const stop = () => {
        clearInterval(keepAlive);
        resolve();
      };
      stopWaiting = stop;
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    const watcher = await engine
      .watch({
        debounceMs: WATCH_DEBOUNCE_MS,
        onPass: (s) => {
          if (s.filesIndexed || s.filesDeleted || s.rebuildReason) ctx.out(summaryLine(s));
        },
        onError: (e) => {
          ctx.err(`error: ${e.message}`);
          // The workspace folder is gone: nothing left to watch, so the command ends.
          if (e instanceof WatcherStoppedError) {
            stoppedBy = e;
            stopWaiting();
          }
        },
      })
      .catch((err: unknown) => {
        stopWaiting(); // nothing to wait for: the keep-alive timer must not hold the process
        throw err;
      });
    ctx.err(`watching ${engine.root} for changes (Ctrl-C to stop)`);
    await stopped;
    await watcher.close();
    return stoppedBy ? 1 : 0;
  },
};
