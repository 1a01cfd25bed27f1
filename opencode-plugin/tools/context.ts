// Shared by the tools: paths confined to the workspace, and the notes that explain an empty or
// partial answer (index building, index empty, keyword-only) instead of returning nothing.
import { realpathSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Engine, IndexStatus } from "../../core/engine-types.js";
import { readRegularFile, UnreadableFileError } from "../../core/files/safe-read.js";
import { sizeLimitFor, tooLargeReason } from "../../core/files/size-limits.js";
import { fileSizeLimits } from "../../core/indexing/workspace-rules.js";
import type { RagWorkspace } from "../workspace.js";
import { formatCount } from "../format.js";

export interface WorkspacePath {
  abs: string;
  /** Workspace-relative, forward slashes. */
  rel: string;
}

function outside(rel: string): boolean {
  return rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel);
}

/** The real path of `abs`, following every symlink; for a path that does not exist yet, its nearest existing folder's. */
function realPathOf(abs: string): string {
  const rest: string[] = [];
  for (let p = abs; ; p = dirname(p)) {
    try {
      return join(realpathSync(p), ...rest.reverse());
    } catch {
      if (dirname(p) === p) return abs;
      rest.push(basename(p));
    }
  }
}

/**
 * Resolves a tool's path argument; a string error when it leaves the workspace, by its
 * name or through a symlink (`etc_link/x` → /etc/x). `abs` is the real path, safe to open.
 */
export function resolveInWorkspace(root: string, input: string): WorkspacePath | string {
  const trimmed = input.trim();
  if (!trimmed) return "The path is empty: pass a file path relative to the workspace root.";
  const abs = isAbsolute(trimmed) ? resolve(trimmed) : resolve(root, trimmed);
  const rel = relative(root, abs);
  const refusal = `\`${input}\` is outside the workspace (${root}); pass a path inside it, relative to the workspace root.`;
  if (outside(rel)) return refusal;
  const real = realPathOf(abs);
  if (outside(relative(realPathOf(root), real))) return refusal;
  return { abs: real, rel: rel.split(sep).join("/") };
}

export type WorkspaceRead =
  | { kind: "file"; path: WorkspacePath; text: string }
  | { kind: "directory"; path: WorkspacePath; entries: string[] };

/**
 * The one way the tools read a workspace file: inside the workspace after following links,
 * a regular file only (never a FIFO or device), at most indexing.maxFileSizeBytes (source code:
 * indexing.maxSourceFileSizeBytes), read asynchronously. Anything else is a one-line answer for the agent.
 */
export async function readWorkspaceFile(ws: Pick<RagWorkspace, "root" | "config">, input: string, options: { listDirectory?: boolean } = {}): Promise<WorkspaceRead | string> {
  const path = resolveInWorkspace(ws.root, input);
  if (typeof path === "string") return path;
  const limit = sizeLimitFor(path.rel, fileSizeLimits(ws.config.indexing));
  try {
    const bytes = await readRegularFile(path.abs, { maxBytes: limit.bytes, noFollow: true });
    return { kind: "file", path, text: bytes.toString("utf8") };
  } catch (err) {
    if (err instanceof UnreadableFileError) {
      if (err.stats.isDirectory()) {
        if (!options.listDirectory) return `\`${path.rel}\` is a directory; pass a file path.`;
        return { kind: "directory", path, entries: (await readdir(path.abs)).sort() };
      }
      if (err.reason === "too-large") return `\`${path.rel}\` is ${tooLargeReason(err.stats.size, limit)}; it is not read whole.`;
      return `\`${path.rel}\` is not a regular file (a FIFO, socket or device); it cannot be read.`;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return `\`${path.rel}\` does not exist in the workspace; check the path (relative to ${ws.root}).`;
    if (code === "ELOOP") return `\`${path.rel}\` changed into a symlink while being read; try again.`;
    return `\`${path.rel}\` cannot be read (${code ?? (err as Error).message}).`;
  }
}

/**
 * Whether a file's text is parsed with its grammar in this process. The tools run inside a
 * long-lived host, and a syntax tree's memory stays with it once grown (a 3.4 MB file: ~100 MB
 * for good); a source file past `indexing.maxFileSizeBytes`, which the index may hold (its
 * chunking runs in a worker that ends with the pass), is read as text instead.
 */
export function parsedInProcess(ws: Pick<RagWorkspace, "config">, text: string): boolean {
  const limit = ws.config.indexing.maxFileSizeBytes;
  // The limit is in bytes: a text of fewer characters than that may still be more bytes.
  return text.length <= limit / 3 || (text.length <= limit && Buffer.byteLength(text, "utf8") <= limit);
}

/** Normalises path hints to workspace-relative prefixes; hints outside the workspace are errors. */
export function pathPrefixes(root: string, hints: string[] | undefined): string[] | string {
  const out: string[] = [];
  for (const hint of hints ?? []) {
    const r = resolveInWorkspace(root, hint);
    if (typeof r === "string") return r;
    if (r.rel) out.push(r.rel + (hint.endsWith("/") ? "/" : ""));
  }
  return out;
}

/** "Indexing 340/1,200 files…" or "The index is empty…", or null when the index is ready. */
export function indexNotice(status: IndexStatus): string | null {
  const pass = status.indexing;
  // A pass over a complete index that has found nothing (or nothing more) to do is a routine
  // check, not a building index.
  if (pass && (status.chunks === 0 || pass.filesDone < pass.filesTotal)) {
    if (pass.filesTotal === 0) return "Index is still building: scanning the workspace… Results may be incomplete; try again shortly or use your usual tools meanwhile.";
    return `Index is still building: indexing ${formatCount(pass.filesDone)}/${formatCount(pass.filesTotal)} files… Results may be incomplete; try again shortly or use your usual tools meanwhile.`;
  }
  if (status.chunks === 0) {
    return "The index is empty: this workspace has not been indexed yet. Run `opencode-rag index` in a terminal (the background indexer also starts with OpenCode when autoIndex.enabled is true), then retry.";
  }
  return null;
}

export async function safeStatus(engine: Engine): Promise<IndexStatus | null> {
  try {
    return await engine.status();
  } catch {
    return null;
  }
}

/** Opens the engine for a tool, or explains in one line why it cannot. */
export async function engineOrMessage(ws: RagWorkspace): Promise<Engine | string> {
  try {
    return await ws.engine();
  } catch (err) {
    const message = (err as Error).message || String(err);
    return `opencode-rag is not available in this workspace: ${message}`;
  }
}
