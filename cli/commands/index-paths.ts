// The path list of `opencode-rag index --paths-from FILE`: one path a line, as `git diff
// --name-only` or a watcher writes them, made workspace-relative for the pass's onlyPaths.
import { isAbsolute, relative, resolve } from "node:path";
import { UsageError } from "../command.js";
import { readLineFile } from "../line-file.js";
import { toPosix } from "../../core/files/walk.js";

/** The paths listed in FILE ("-": standard input), workspace-relative; blank lines are skipped. */
export function readPathList(source: string, root: string): string[] {
  return [...new Set(readLineFile(source, "path list").map((line) => workspacePath(line, root)))];
}

/**
 * A listed path relative to the workspace, `/`-separated. A trailing `/` is kept: it asks for
 * the files directly in that folder (pass-plan.ts); "/" alone, or "./", for the root's (a watcher's
 * request, not the file system's root).
 */
export function workspacePath(line: string, root: string): string {
  if (line === "/") return "/";
  const folderEntries = /[\\/]$/.test(line);
  const rel = toPosix(relative(root, resolve(root, line)));
  if (rel === ".." || rel.startsWith("../") || isAbsolute(rel)) {
    throw new UsageError(`${JSON.stringify(line)} in the path list is outside the workspace ${root}; list paths inside it, relative to it`);
  }
  if (!folderEntries) {
    if (rel === "") throw new UsageError(`${JSON.stringify(line)} in the path list is the workspace itself; run opencode-rag index without --paths-from for a whole pass`);
    return rel;
  }
  return rel === "" ? "/" : `${rel}/`;
}
