// Shared by the tools: paths confined to the workspace, and the notes that explain an empty or
// partial answer (index building, index empty, keyword-only) instead of returning nothing.
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { Engine, IndexStatus } from "../../core/engine-types.js";
import type { RagWorkspace } from "../workspace.js";
import { formatCount } from "../format.js";

export interface WorkspacePath {
  abs: string;
  /** Workspace-relative, forward slashes. */
  rel: string;
}

/** Resolves a tool's path argument; a string error when it leaves the workspace. */
export function resolveInWorkspace(root: string, input: string): WorkspacePath | string {
  const trimmed = input.trim();
  if (!trimmed) return "The path is empty: pass a file path relative to the workspace root.";
  const abs = isAbsolute(trimmed) ? resolve(trimmed) : resolve(root, trimmed);
  const rel = relative(root, abs);
  if (rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel)) {
    return `\`${input}\` is outside the workspace (${root}); pass a path inside it, relative to the workspace root.`;
  }
  return { abs, rel: rel.split(sep).join("/") };
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
  if (status.indexing) {
    return `Index is still building: indexing ${formatCount(status.indexing.filesDone)}/${formatCount(status.indexing.filesTotal)} files… Results may be incomplete; try again shortly or use your usual tools meanwhile.`;
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
