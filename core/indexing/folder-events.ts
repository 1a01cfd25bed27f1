// File events for a workspace from chokidar watching its folders only. A folder's system watch
// reports changes to its entries (written, created, deleted, renamed), so files need no watch
// of their own; chokidar's own events would need one per file, and at 100k files those held
// ~550 MB under Bun (~720 MB under Node), took 12-15 s to start and asked the system for 100k
// watches (inotify's limit is often lower). Here a folder's raw event (chokidar's `raw`: the
// folder watched and, maybe, an entry's name) reports the folder ("entries"): its pass lists what
// the folder holds now and the manifest tells what changed. Not the name: Bun's folder watch
// names only the first of the changes it reads at once (10 files written back to back: one
// event), and not an ignore file's: of a .gitignore edited beside other files while the host
// was busy, Bun said nothing at all. So each folder event looks at the folder's ignore files'
// sizes and dates, as they were when the watch started. chokidar keeps the folder tree watched as
// folders come and go.
import { lstatSync, type Stats } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import type { FSWatcher } from "chokidar";
import { GITIGNORE_FILE, isIgnoreFile, RAGIGNORE_FILE } from "../files/ignore-rules.js";
import { toPosix } from "../files/walk.js";

/**
 * What changed at a path: a file written or created (a new folder's files, an ignore file), a
 * watched folder gone, or a watched folder's entries (some of which the system may not name).
 */
export type FolderEvent = "change" | "unlinkDir" | "entries";

export interface FolderEventsOptions {
  /** Paths relative to the root, `/`-separated; excluded ones are neither watched nor reported. */
  isExcluded(rel: string, isFolder: boolean): boolean;
  /** Something changed at a path (absolute); files in a folder that appears are reported one by one. */
  onPath(abs: string, event: FolderEvent): void;
  onError(err: unknown): void;
}

export interface FolderEvents {
  /** Watches a folder (and those below it) again, as when it became readable. */
  rewatch(abs: string): void;
  close(): Promise<void>;
}

/** Starts watching `root`'s folders; resolves once every folder is watched. */
export async function watchFolders(root: string, o: FolderEventsOptions): Promise<FolderEvents> {
  // imported here: only a watching process needs chokidar (and the modules it loads)
  const { watch } = await import("chokidar");
  const rel = (abs: string) => toPosix(relative(root, abs));
  const outside = (r: string) => !r || r.startsWith("..");
  const excludedEitherWay = (r: string) => o.isExcluded(r, false) || o.isExcluded(r, true);
  let closed = false;
  let ready = false;
  const ignoreFiles = new IgnoreFileDates();
  const fsWatcher: FSWatcher = watch(root, {
    ignoreInitial: true,
    persistent: true,
    followSymlinks: false,
    ignored: (path: string, stats?: Stats) => {
      const r = rel(path);
      if (outside(r)) return false;
      // Folders only: a file is seen through its folder's watch. The first listing of each
      // folder gives its ignore files' dates to compare events with (later listings come with
      // events: they would hide the change).
      if (stats && !ready && !stats.isDirectory() && isIgnoreFile(r)) ignoreFiles.note(path, stats);
      if (stats) return stats.isDirectory() ? o.isExcluded(r, true) : true;
      return excludedEitherWay(r);
    },
  });

  /** A folder that appeared (created, moved in): the files it already holds. Its folders come as their own `addDir`. */
  const onNewFolder = async (abs: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    if (closed) return;
    for (const e of entries) {
      const path = join(abs, e.name);
      if (isIgnoreFile(e.name)) ignoreFiles.changed(path);
      if (!e.isDirectory() && !o.isExcluded(rel(path), false)) o.onPath(path, "change");
    }
  };

  fsWatcher
    .on("raw", (_event: string, _name: unknown, details: unknown) => {
      const folder = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof folder !== "string" || rel(folder).startsWith("..")) return;
      // The folder's pass finds what changed in it, named or not (Bun names one of many).
      o.onPath(folder, "entries");
      // An ignore file changes what every path means: reported, for the watcher to look at all.
      for (const ignoreFile of [GITIGNORE_FILE, RAGIGNORE_FILE]) {
        const path = join(folder, ignoreFile);
        if (ignoreFiles.changed(path)) o.onPath(path, "change");
      }
    })
    .on("addDir", (abs: string) => void onNewFolder(abs))
    .on("unlinkDir", (abs: string) => o.onPath(abs, "unlinkDir"))
    .on("error", (err: unknown) => o.onError(err));
  await new Promise<void>((resolve) => fsWatcher.once("ready", () => resolve()));
  ready = true;
  return {
    rewatch(abs) {
      fsWatcher.unwatch(abs);
      fsWatcher.add(abs);
    },
    async close() {
      closed = true;
      await fsWatcher.close();
    },
  };
}

/** The size and date of each ignore file in the watched folders, to tell an edit no event named. */
class IgnoreFileDates {
  private readonly seen = new Map<string, string>();

  note(abs: string, stats: Pick<Stats, "size" | "mtimeMs">): void {
    this.seen.set(abs, `${stats.size}:${stats.mtimeMs}`);
  }

  /** Whether the file at `abs` was written, created or deleted since last seen; remembers it as it is now. */
  changed(abs: string): boolean {
    let now: string | undefined;
    try {
      // Most folders have none: no exception for those.
      const st = lstatSync(abs, { throwIfNoEntry: false });
      now = st && `${st.size}:${st.mtimeMs}`;
    } catch {
      now = undefined; // unreadable: as good as gone
    }
    const before = this.seen.get(abs);
    if (now === before) return false;
    if (now === undefined) this.seen.delete(abs);
    else this.seen.set(abs, now);
    return true;
  }
}
