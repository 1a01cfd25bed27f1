// Step 2 of a pass: which files exist now (stat only) and which of them changed since the
// manifest: size or mtime differ. The rest is not even opened.
import { readdirSync, statSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { isIgnoreFile } from "../files/ignore-rules.js";
import { statPaths, walkWorkspace, type WalkedFile } from "../files/walk.js";
import type { PassState } from "./pass-state.js";
import type { FileToPrepare } from "./prepare-file.js";
import { fileSizeLimits, ignoreRulesFor } from "./workspace-rules.js";

export interface PassPlan {
  /** Files to read, hash and chunk. */
  changed: FileToPrepare[];
  /** Manifest paths no longer present: their rows go. */
  deleted: string[];
}

export async function planPass(pass: PassState): Promise<PassPlan> {
  const { env, config, options, summary, manifest, skippedFiles } = pass;
  const rules = ignoreRulesFor(env);
  const walkOpts = { rules, ...fileSizeLimits(config.indexing), signal: options.signal };
  let present: WalkedFile[];
  let deleted: string[];
  // A partial pass looks only at the given files, and at the files directly in the given
  // folders' entries ("dir/", "/" for the root: a watched folder whose changes were not all
  // named). An ignore file among them changes what every path means, and any other folder would
  // need its own walk: both make it a full pass.
  const partial =
    options.onlyPaths &&
    !pass.rebuildReason &&
    pass.read.status === "ok" &&
    !options.onlyPaths.some((p) => isIgnoreFile(p) || (!isFolderEntries(p) && isExistingFolder(join(env.root, p))));
  if (partial) {
    const requested = new Set(options.onlyPaths!);
    const listed = listFolderEntries(env.root, requested);
    const r = statPaths(env.root, [...listed.paths], walkOpts);
    present = r.files;
    summary.filesSkipped += r.skipped.length;
    for (const f of r.skipped) skippedFiles.set(f.path, f.reason);
    const goneSet = new Set<string>();
    for (const g of r.gone) {
      if (manifest.files[g]) goneSet.add(g);
      // A folder was removed or renamed: everything under it goes.
      const prefix = g + "/";
      for (const p of Object.keys(manifest.files)) if (p.startsWith(prefix)) goneSet.add(p);
    }
    // Files a listed folder held at the last pass and no longer does.
    if (listed.folders.size > 0) {
      for (const p of Object.keys(manifest.files)) if (listed.folders.has(parentOf(p)) && !listed.paths.has(p)) goneSet.add(p);
    }
    deleted = [...goneSet];
    pass.examined = [...listed.paths, ...deleted];
  } else {
    const r = await walkWorkspace(env.root, walkOpts);
    present = r.files;
    summary.filesSkipped += r.skipped.length;
    for (const f of r.skipped) skippedFiles.set(f.path, f.reason);
    // Walked paths are distinct: when as many of them have an entry as the manifest holds,
    // nothing is gone, and the set of every path is not needed (the usual pass).
    let known = 0;
    for (const f of present) if (Object.hasOwn(manifest.files, f.path)) known++;
    const recorded = Object.keys(manifest.files);
    if (known === recorded.length) deleted = [];
    else {
      const seen = new Set(present.map((f) => f.path));
      deleted = recorded.filter((p) => !seen.has(p));
    }
  }
  summary.filesScanned = present.length;
  pass.progress.mark("walk");

  const changed: FileToPrepare[] = [];
  for (const f of present) {
    const entry = manifest.files[f.path];
    if (entry && entry.size === f.size && entry.mtimeMs === f.mtimeMs) {
      summary.filesUnchanged++;
      if (entry.skipped) {
        summary.filesSkipped++;
        skippedFiles.set(f.path, entry.skipped);
      }
      continue;
    }
    changed.push({ path: f.path, absPath: f.absPath, size: f.size, mtimeMs: f.mtimeMs, previousHash: entry?.hash });
  }
  pass.progress.mark("diff");
  return { changed, deleted };
}

/** A request for the files directly in a folder: "dir/", or "/" for the workspace's root. */
function isFolderEntries(path: string): boolean {
  return path.endsWith("/");
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/**
 * The requested paths with each folder request replaced by the entries the folder holds now
 * (not its subfolders: their own watches report them). A folder that cannot be listed is
 * requested by its name, so that statPaths finds it gone and what was under it goes.
 */
function listFolderEntries(root: string, requested: Set<string>): { paths: Set<string>; folders: Set<string> } {
  const paths = new Set<string>();
  const folders = new Set<string>();
  for (const p of requested) {
    if (!isFolderEntries(p)) {
      paths.add(p);
      continue;
    }
    const folder = p === "/" ? "" : p.slice(0, -1);
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true });
    } catch {
      if (folder) paths.add(folder);
      continue;
    }
    folders.add(folder);
    for (const e of entries) if (!e.isDirectory()) paths.add(folder ? `${folder}/${e.name}` : e.name);
  }
  return { paths, folders };
}

export function isExistingFolder(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
