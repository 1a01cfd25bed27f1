// Keeps the index current while files change (F7). Two backends feed one PassScheduler:
// chokidar (file events, from a watch per folder: folder-events.ts) and git (what changed since
// the last indexed commit, plus dirty files, checked every autoIndex.intervalMs). Passes go
// through the host's index(), so the lock, the manifest protocol and the progress file are the
// same as for `index`.
import { execFile } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { RagConfig } from "../config/defaults.js";
import type { IndexOptions, IndexSummary, Logger, PassApart, Watcher, WatchOptions } from "../engine-types.js";
import { isIgnoreFile, type IgnoreRules } from "../files/ignore-rules.js";
import { toPosix } from "../files/walk.js";
import { IndexBusyError, waitingLine } from "../locking/busy.js";
import { PlainError } from "../errors/plain-error.js";
import { isS3Uri } from "../objectstore/s3.js";
import { watchFolders, type FolderEvent, type FolderEvents } from "./folder-events.js";
import { IndexCancelledError, PassTooBigError, WatcherStoppedError } from "./pass-env.js";
import { oneLine } from "../error-line.js";
import { PassScheduler, type PassRequest } from "./pass-scheduler.js";
import { writeWatcherStatus, type WatcherStatusFile } from "./state-files.js";
import { readSkippedList } from "./skipped-files.js";

export interface WatchHost {
  root: string;
  stateDir: string;
  config: RagConfig;
  logger: Logger;
  index(options: IndexOptions): Promise<IndexSummary>;
  /** Fresh exclusion rules (called again after an ignore file changes). */
  rules(): IgnoreRules;
}

/** How long to wait before retrying a pass that found another process's pass running. */
const BUSY_RETRY_MS = 2000;
/** How often the watcher checks that the root still exists and whether unreadable folders came back. */
const HEALTH_CHECK_MS = 1000;

function isFolder(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function canList(abs: string): boolean {
  try {
    readdirSync(abs);
    return true;
  } catch {
    return false;
  }
}

export async function startWatcher(host: WatchHost, options: WatchOptions = {}): Promise<Watcher> {
  const backend = options.backend ?? (host.config.autoIndex.backend as "chokidar" | "git");
  const debounceMs = options.debounceMs ?? host.config.autoIndex.debounceMs;
  const intervalMs = options.intervalMs ?? host.config.autoIndex.intervalMs;
  let rules = host.rules();
  let lastPass: WatcherStatusFile["lastPass"];
  let closed = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let forcedAfterFailure = false;
  const apart = options.passesApart ?? null;
  /** A pass running in another process, while it runs. */
  let child: PassApart | null = null;

  // Writing into a deleted workspace would bring `<root>/.opencode/` back: never.
  const rootGone = () => !isFolder(host.root);
  const status = (state: WatcherStatusFile["state"], message?: string) => {
    if (rootGone()) return;
    writeWatcherStatus(host.stateDir, { pid: process.pid, state, backend, updatedAt: new Date().toISOString(), message, lastPass });
  };
  /** Folders a walk or chokidar could not read (absolute): watched again once readable. */
  const unreadable = new Set<string>();
  const noteUnreadableFromLastPass = () => {
    for (const f of readSkippedList(host.stateDir)?.files ?? []) {
      if (f.reason.startsWith("cannot list folder")) unreadable.add(join(host.root, f.path));
    }
  };

  async function pass(request: PassRequest, force = false): Promise<void> {
    if (closed) return;
    if (rootGone()) return stopForMissingRoot();
    status("indexing");
    try {
      const summary = await indexHereOrApart(request, force);
      if (!summary) return;
      forcedAfterFailure = false;
      noteUnreadableFromLastPass();
      lastPass = { at: new Date().toISOString(), filesIndexed: summary.filesIndexed, filesDeleted: summary.filesDeleted, durationMs: summary.durationMs };
      status("watching");
      options.onPass?.(summary);
    } catch (err) {
      if (err instanceof IndexBusyError) {
        // Another process is indexing; look again shortly (its pass may not cover our changes).
        status("watching", waitingLine(err));
        if (!closed) {
          retryTimer = setTimeout(() => scheduler.notify(null), BUSY_RETRY_MS);
          retryTimer.unref?.();
        }
        return;
      }
      if (err instanceof IndexCancelledError || closed) return;
      if (rootGone()) return stopForMissingRoot();
      host.logger.error("watch pass failed", { error: oneLine(err) });
      // A store that cannot be read or written is rebuilt once; a second failure is reported.
      // Not a shared index in a bucket: its failures are the network's or another writer's,
      // which a rebuild (everyone's, under the bucket's lock) would not fix.
      // Nor a failure of the disk or the network said in plain words: a rebuild cannot fix those.
      if (!forcedAfterFailure && !isS3Uri(host.config.vectorStore.path) && !(err instanceof PlainError && err.kind !== "damaged")) {
        forcedAfterFailure = true;
        host.logger.info("rebuilding the index after a failed pass");
        return pass(null, true);
      }
      status("error", oneLine(err));
      options.onError?.(err as Error);
    }
  }

  /**
   * The pass in this process, or, when it would read more than the host's limit, in another
   * (pass-apart.ts); one that cannot start or fails there runs here after all. Null when the
   * watcher closed meanwhile.
   */
  async function indexHereOrApart(request: PassRequest, force: boolean): Promise<IndexSummary | null> {
    const onlyPaths = request ?? undefined;
    if (!apart) return host.index({ onlyPaths, force });
    try {
      return await host.index({ onlyPaths, force, apartAboveBytes: apart.aboveBytes });
    } catch (err) {
      if (!(err instanceof PassTooBigError)) throw err;
      host.logger.info("running a big pass in a process of its own", { files: err.files, bytes: err.bytes, reason: err.reason });
    }
    child = apart.run({ force, onlyPaths }, host.logger);
    const summary = await child?.done;
    child = null;
    if (closed) return null;
    return summary ?? host.index({ onlyPaths, force });
  }

  const scheduler = new PassScheduler((req) => pass(req), debounceMs);
  let fsWatcher: FolderEvents | null = null;
  let gitTimer: ReturnType<typeof setInterval> | null = null;
  let healthTimer: ReturnType<typeof setInterval> | null = null;

  function stopTimers(): void {
    if (retryTimer) clearTimeout(retryTimer);
    if (gitTimer) clearInterval(gitTimer);
    if (healthTimer) clearInterval(healthTimer);
  }

  /** The workspace folder was deleted: stop for good (nothing to index, nothing to recreate). */
  function stopForMissingRoot(): void {
    if (closed) return;
    closed = true;
    stopTimers();
    void fsWatcher?.close();
    void scheduler.close();
    const err = new WatcherStoppedError(`the workspace folder ${host.root} was deleted; stopped watching it (start the watcher again once it exists)`);
    host.logger.error("watch stopped", { error: err.message });
    options.onError?.(err);
  }

  /** Stops on a deleted root; re-watches and re-indexes folders that became readable again. */
  function checkHealth(): void {
    if (closed) return;
    if (rootGone()) return stopForMissingRoot();
    for (const abs of [...unreadable]) {
      if (!isFolder(abs)) {
        unreadable.delete(abs);
        continue;
      }
      if (!canList(abs)) continue;
      unreadable.delete(abs);
      const rel = toPosix(relative(host.root, abs));
      host.logger.info("a folder is readable again; indexing it", { folder: rel });
      fsWatcher?.rewatch(abs);
      scheduler.notify(rel || null);
    }
  }

  if (backend === "git") {
    const git = new GitChangeSource(host.root);
    git.onPaths = (paths) => scheduler.requestNow(paths);
    await git.poll();
    gitTimer = setInterval(() => void git.poll(), Math.max(1000, intervalMs));
    gitTimer.unref?.();
  } else {
    const onEvent = (path: string, event: FolderEvent) => {
      // chokidar reports a folder it can no longer read as removed, and stops watching it.
      if (event === "unlinkDir" && isFolder(path)) unreadable.add(path);
      const rel = toPosix(relative(host.root, path));
      if (rel.startsWith("..")) return;
      // The files directly in a watched folder (pass-plan.ts: "dir/", "/" for the root).
      if (event === "entries") return scheduler.notify(`${rel}/`);
      if (!rel) return;
      if (isIgnoreFile(rel)) {
        rules = host.rules();
        scheduler.notify(null);
      } else {
        scheduler.notify(rel);
      }
    };
    fsWatcher = await watchFolders(host.root, {
      isExcluded: (rel, isFolder) => rules.isExcluded(rel, isFolder),
      onPath: onEvent,
      onError: (err) => {
        const e = err as NodeJS.ErrnoException;
        if ((e.code === "EACCES" || e.code === "EPERM") && e.path && isFolder(e.path)) unreadable.add(e.path);
        host.logger.error("file watcher error", { error: oneLine(err) });
      },
    });
  }
  noteUnreadableFromLastPass();
  healthTimer = setInterval(checkHealth, HEALTH_CHECK_MS);
  healthTimer.unref?.();
  status("watching");
  host.logger.info("watching for changes", { backend, debounceMs });
  // What changed while nobody watched (the git backend's first poll asks for it itself).
  if (options.catchUp && backend !== "git") scheduler.requestNow(null);

  return {
    async close() {
      closed = true;
      stopTimers();
      child?.stop();
      await fsWatcher?.close();
      await scheduler.close();
      status("off");
    },
  };
}

function runGit(root: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // --no-optional-locks: `git status` would otherwise refresh .git/index under index.lock and
    // make the user's own `git add` or `git commit` fail while it runs.
    execFile("git", ["--no-optional-locks", "-C", root, ...args], { env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

/**
 * Changes since the last poll, from git: files changed between the last seen HEAD and the
 * current one, plus files git reports as modified or untracked. The first poll asks for a full
 * pass (the manifest then makes it cheap: unchanged files are not read).
 */
export class GitChangeSource {
  private lastHead: string | null = null;
  onPaths: (paths: string[] | null) => void = () => undefined;

  constructor(private readonly root: string) {}

  async changes(): Promise<string[] | null> {
    const head = (await runGit(this.root, ["rev-parse", "HEAD"]).catch(() => "")).trim() || null;
    const prev = this.lastHead;
    this.lastHead = head;
    if (prev === null || head === null) return null;
    // git names paths from the repository root; the workspace may be a folder inside it.
    const prefix = (await runGit(this.root, ["rev-parse", "--show-prefix"])).trim();
    const paths = new Set<string>();
    const add = (repoPath: string) => {
      if (!repoPath) return;
      if (!prefix) paths.add(repoPath);
      else if (repoPath.startsWith(prefix)) paths.add(repoPath.slice(prefix.length));
    };
    if (prev !== head) {
      for (const p of (await runGit(this.root, ["diff", "--name-only", "-z", prev, head])).split("\0")) add(p);
    }
    // Porcelain v1 with -z: "XY path\0", renames add the old path as a second entry.
    const entries = (await runGit(this.root, ["status", "--porcelain", "-z", "--untracked-files=all"])).split("\0");
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e.length < 4) continue;
      add(e.slice(3));
      if (e[0] === "R" || e[0] === "C") add(entries[++i]);
    }
    return [...paths];
  }

  async poll(): Promise<void> {
    try {
      const c = await this.changes();
      if (c === null || c.length > 0) this.onPaths(c);
    } catch {
      this.onPaths(null);
    }
  }
}
