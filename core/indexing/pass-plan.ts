// Step 2 of a pass: which files exist now (stat only) and which of them changed since the
// manifest: size or mtime differ. The rest is not even opened.
import { statSync } from "node:fs";
import { join } from "node:path";
import { isIgnoreFile } from "../files/ignore-rules.js";
import { parentOf, statPaths, walkFolderEntries, walkWorkspace, type WalkedFile } from "../files/walk.js";
import type { PassState } from "./pass-state.js";
import { pathsByFolder } from "./manifest-folders.js";
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
    const folders: string[] = [];
    const paths: string[] = [];
    for (const p of requested) {
      if (!isFolderEntries(p)) paths.push(p);
      else folders.push(p === "/" ? "" : p.slice(0, -1));
    }
    // A folder's entries are listed as the walk lists them; a folder it cannot list is asked
    // for by its name, so that statPaths finds it gone and what was under it goes.
    const listed = await walkFolderEntries(env.root, folders, walkOpts);
    const r = statPaths(env.root, [...paths.filter((p) => !listed.listed.has(parentOf(p))), ...listed.unlisted], walkOpts);
    present = [...listed.files, ...r.files];
    for (const f of [...listed.skipped, ...r.skipped]) {
      summary.filesSkipped++;
      skippedFiles.set(f.path, f.reason);
    }
    const goneSet = new Set<string>();
    // A gone path the manifest does not hold may be a folder removed or renamed: what was under it goes.
    const goneFolders = new Set<string>();
    for (const g of r.gone) {
      if (Object.hasOwn(manifest.files, g)) goneSet.add(g);
      else goneFolders.add(g);
    }
    // And files a listed folder held at the last pass and no longer holds as the walk would list
    // them, found among the manifest's paths by folder.
    if (goneFolders.size > 0 || listed.listed.size > 0) {
      const found = new Set(listed.files.map((f) => f.path));
      const byFolder = pathsByFolder(manifest.files);
      for (const folder of listed.listed) for (const p of byFolder.get(folder) ?? []) if (!found.has(p)) goneSet.add(p);
      if (goneFolders.size > 0) for (const [folder, paths] of byFolder) if (underAny(folder, goneFolders)) for (const p of paths) goneSet.add(p);
    }
    deleted = [...goneSet];
    pass.examined = [...present.map((f) => f.path), ...listed.skipped.map((f) => f.path), ...r.skipped.map((f) => f.path), ...deleted];
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

/** Whether `folder` is one of `folders` or lies under one. */
function underAny(folder: string, folders: Set<string>): boolean {
  for (let f = folder; f !== ""; f = parentOf(f)) if (folders.has(f)) return true;
  return false;
}

export function isExistingFolder(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
