// Lists the files the index covers, with size and mtime from stat: no file content is read
// here, so an unchanged workspace costs one readdir per folder and one stat per file.
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { IgnoreRules } from "./ignore-rules.js";
import { SECRET_REASON } from "./secret-files.js";
import { yieldToEventLoop } from "../yield.js";
import { exceededLimit, tooLargeReason, type FileSizeLimits } from "./size-limits.js";

export interface WalkedFile {
  /** Workspace-relative, forward slashes. */
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface WalkResult {
  files: WalkedFile[];
  /** Files seen but left out for a reason a user may want to know (secret, too large, unreadable). */
  skipped: SkippedFile[];
}

export interface WalkOptions extends FileSizeLimits {
  rules: IgnoreRules;
  signal?: AbortSignal;
}

/** Forward slashes whatever the platform, so paths in the index are the same everywhere. */
export function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/");
}

/** The folder holding a workspace-relative posix path ("" for the root's own entries). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** A workspace-relative posix path for an absolute one, or null when it is outside the root. */
export function relativeToRoot(root: string, abs: string): string | null {
  const rel = relative(root, abs);
  if (rel === "..") return null;
  if (rel.startsWith(".." + sep) || isAbsolute(rel)) return null;
  return toPosix(rel);
}

function isInside(rootReal: string, real: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(sep) ? rootReal : rootReal + sep);
}

/**
 * Whether a link's target inside the workspace is listed at its own place: then the link is
 * the same file again. A target the ignore rules leave out is reached through the link only.
 */
function targetIsWalked(rootReal: string, real: string, rules: IgnoreRules): boolean {
  const rel = relativeToRoot(rootReal, real);
  return rel !== null && !rules.isExcluded(rel);
}

/** Yield to the event loop now and then so a host stays responsive during a big walk. */
const YIELD_EVERY = 2000;

export async function walkWorkspace(root: string, options: WalkOptions): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  const skipped: SkippedFile[] = [];
  const rootReal = realpathSync(root);
  let sinceYield = 0;

  const stack: Array<{ abs: string; rel: string }> = [{ abs: root, rel: "" }];
  while (stack.length > 0) {
    if (options.signal?.aborted) throw new Error("indexing cancelled");
    const { abs, rel } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (err) {
      if (rel) skipped.push({ path: rel, reason: `cannot list folder: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` });
      continue;
    }
    // Sorted so passes and progress are reproducible.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    options.rules.noteListing(rel, entries.map((e) => e.name));
    const subdirs: Array<{ abs: string; rel: string }> = [];
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = abs + sep + entry.name;
      const seen = visitEntry(entry, childAbs, childRel, rootReal, options);
      if (seen === null) continue;
      if (seen === "folder") subdirs.push({ abs: childAbs, rel: childRel });
      else if ("reason" in seen) skipped.push(seen);
      else {
        files.push(seen);
        if (++sinceYield >= YIELD_EVERY) {
          sinceYield = 0;
          await yieldToEventLoop();
        }
      }
    }
    // Reverse so the stack pops folders in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped };
}

/**
 * What one listed entry is to the index, by the walk's rules: a file (stat'ed), a file left out
 * for a reason a user may want to know, a folder to go into, or nothing (excluded, a link the
 * walk does not follow, a socket…).
 */
function visitEntry(entry: Dirent, abs: string, rel: string, rootReal: string, options: WalkOptions): WalkedFile | SkippedFile | "folder" | null {
  let isDir = entry.isDirectory();
  let isFile = entry.isFile();
  let st: Stats | null = null;
  if (entry.isSymbolicLink()) {
    // A linked folder is never followed: one outside the workspace is not ours, and one
    // inside is indexed at its real place (following it would index files twice, or loop).
    // A linked file is indexed only when it points inside the workspace, and there only
    // when its target is not indexed itself (`CLAUDE.md -> AGENTS.md`).
    let real: string;
    try {
      real = realpathSync(abs);
      st = statSync(real);
    } catch {
      return null; // dangling link
    }
    if (!isInside(rootReal, real) || !st.isFile() || targetIsWalked(rootReal, real, options.rules)) return null;
    isDir = false;
    isFile = true;
  }
  if (!isDir && !isFile) return null; // sockets, fifos, devices
  if (options.rules.isEntryExcluded(rel, isDir)) return null;
  if (isDir) return "folder";
  if (options.rules.isSecretFile(rel)) return { path: rel, reason: SECRET_REASON };
  try {
    st ??= statSync(abs);
  } catch (err) {
    return { path: rel, reason: `cannot stat: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const over = exceededLimit(rel, st.size, options);
  if (over) return { path: rel, reason: tooLargeReason(st.size, over) };
  return { path: rel, absPath: abs, size: st.size, mtimeMs: st.mtimeMs };
}

export interface FolderEntriesResult extends WalkResult {
  /** The folders whose entries were listed. */
  listed: Set<string>;
  /** Folders that could not be listed as the walk would: gone, excluded, unreadable or reached through a link. */
  unlisted: string[];
}

/**
 * The files directly in each of `folders` (workspace-relative, "" for the root), not in their
 * subfolders, as the walk would list them there: one readdir per folder and one stat per file
 * (a watcher's pass over the folders a branch switch touched). A folder the walk would not list
 * comes back in `unlisted`.
 */
export async function walkFolderEntries(root: string, folders: string[], options: WalkOptions): Promise<FolderEntriesResult> {
  const result: FolderEntriesResult = { files: [], skipped: [], listed: new Set(), unlisted: [] };
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch {
    result.unlisted.push(...folders);
    return result;
  }
  let sinceYield = 0;
  for (const folder of folders) {
    if (options.signal?.aborted) throw new Error("indexing cancelled");
    const abs = folder ? join(root, folder) : root;
    let entries: Dirent[];
    try {
      if (folder && (options.rules.isExcluded(folder, true) || relativeToRoot(rootReal, realpathSync(abs)) !== folder)) throw new Error("not walked");
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      result.unlisted.push(folder);
      continue;
    }
    result.listed.add(folder);
    options.rules.noteListing(folder, entries.map((e) => e.name));
    for (const entry of entries) {
      const rel = folder ? `${folder}/${entry.name}` : entry.name;
      const seen = visitEntry(entry, abs + sep + entry.name, rel, rootReal, options);
      if (seen === null || typeof seen === "string") continue;
      if ("reason" in seen) result.skipped.push(seen);
      else result.files.push(seen);
      if (++sinceYield >= YIELD_EVERY) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
  }
  return result;
}

/**
 * Stats a given set of workspace-relative paths (watch mode, onlyPaths) with the same rules
 * as the walker. Paths that no longer exist or are excluded come back in `gone`.
 */
export function statPaths(
  root: string,
  paths: string[],
  options: WalkOptions,
): { files: WalkedFile[]; skipped: SkippedFile[]; gone: string[] } {
  const files: WalkedFile[] = [];
  const skipped: SkippedFile[] = [];
  const gone: string[] = [];
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch {
    return { files, skipped, gone: [...paths] };
  }
  for (const path of paths) {
    const abs = join(root, path);
    if (options.rules.isExcluded(path)) {
      gone.push(path);
      continue;
    }
    if (options.rules.isSecretFile(path)) {
      skipped.push({ path, reason: SECRET_REASON });
      gone.push(path);
      continue;
    }
    let st: Stats;
    try {
      const real = realpathSync(abs);
      // Reached through a link (itself or a linked folder above it): the walk lists the target.
      if (!isInside(rootReal, real) || (relativeToRoot(rootReal, real) !== path && targetIsWalked(rootReal, real, options.rules))) {
        gone.push(path);
        continue;
      }
      st = statSync(real);
    } catch {
      gone.push(path);
      continue;
    }
    if (!st.isFile()) {
      gone.push(path);
      continue;
    }
    const over = exceededLimit(path, st.size, options);
    if (over) {
      skipped.push({ path, reason: tooLargeReason(st.size, over) });
      gone.push(path);
      continue;
    }
    files.push({ path, absPath: abs, size: st.size, mtimeMs: st.mtimeMs });
  }
  return { files, skipped, gone };
}
