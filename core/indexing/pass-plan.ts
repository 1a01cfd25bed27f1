// Step 2 of a pass: which files exist now (stat only) and which of them changed since the
// manifest: size or mtime differ. The rest is not even opened.
import { statSync } from "node:fs";
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
  // A partial pass looks only at the given files. An ignore file among them changes what
  // every path means, and a folder would need its own walk: both make it a full pass.
  const partial =
    options.onlyPaths &&
    !pass.rebuildReason &&
    pass.read.status === "ok" &&
    !options.onlyPaths.some((p) => isIgnoreFile(p) || isExistingFolder(join(env.root, p)));
  if (partial) {
    const r = statPaths(env.root, [...new Set(options.onlyPaths!)], walkOpts);
    present = r.files;
    summary.filesSkipped += r.skipped.length;
    for (const f of r.skipped) skippedFiles.set(f.path, f.reason);
    pass.examined = [...new Set(options.onlyPaths!)];
    const goneSet = new Set<string>();
    for (const g of r.gone) {
      if (manifest.files[g]) goneSet.add(g);
      // A folder was removed or renamed: everything under it goes.
      const prefix = g + "/";
      for (const p of Object.keys(manifest.files)) if (p.startsWith(prefix)) goneSet.add(p);
    }
    deleted = [...goneSet];
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

export function isExistingFolder(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
