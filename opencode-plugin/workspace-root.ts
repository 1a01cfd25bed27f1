// Which folder is the workspace when OpenCode is opened somewhere inside a project: the nearest
// folder from OpenCode's directory up to the worktree root that already has opencode-rag config
// or an index, so a subfolder session shares the project's index instead of starting its own.
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { DEFAULT_CONFIG } from "../core/config/defaults.js";
import { CONFIG_FILE_CANDIDATES } from "../core/config/load.js";

const MARKERS = [...CONFIG_FILE_CANDIDATES, DEFAULT_CONFIG.vectorStore.path];

export function workspaceRoot(directory: string, worktree?: string): string {
  const start = resolve(directory);
  const top = worktree && worktree !== "/" ? resolve(worktree) : start;
  const rel = relative(top, start);
  // Only walk up when the directory is inside the worktree.
  if (rel.startsWith("..") || rel.split(sep).includes("..")) return start;
  for (let dir = start; ; dir = dirname(dir)) {
    if (MARKERS.some((m) => existsSync(join(dir, m)))) return dir;
    if (dir === top || dirname(dir) === dir) return start;
  }
}
