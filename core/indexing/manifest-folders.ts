// The manifest's paths by folder, for a pass over a folder's entries ("dir/", what the folder
// watch asks for after every save): which files the manifest holds there, without looking at
// every path it holds (at 100k files that look was half of such a pass). Built on a table's
// first such pass, then kept current by editEntry for as long as the table is in use: a
// process's passes hand their table on (PassEnv.writtenFiles), so a watcher builds it once.
import { parentOf } from "../files/walk.js";
import type { ManifestFileEntry } from "./manifest-files.js";

type Files = Record<string, ManifestFileEntry>;

/** Per file table, its paths by folder ("" for the root); only tables a folder pass asked about. */
const byTable = new WeakMap<Files, Map<string, Set<string>>>();

/** `files`' paths by the folder that holds them. */
export function pathsByFolder(files: Files): ReadonlyMap<string, ReadonlySet<string>> {
  let folders = byTable.get(files);
  if (!folders) {
    folders = new Map();
    for (const path in files) add(folders, path);
    byTable.set(files, folders);
  }
  return folders;
}

/** A path's entry was added to (`present`) or removed from `files`: a table with folders known keeps them current. */
export function notePathChange(files: Files, path: string, present: boolean): void {
  const folders = byTable.get(files);
  if (!folders) return;
  if (present) add(folders, path);
  else {
    const folder = parentOf(path);
    const paths = folders.get(folder);
    paths?.delete(path);
    if (paths?.size === 0) folders.delete(folder);
  }
}

function add(folders: Map<string, Set<string>>, path: string): void {
  const folder = parentOf(path);
  let paths = folders.get(folder);
  if (!paths) folders.set(folder, (paths = new Set()));
  paths.add(path);
}
