// Documentation mode (F23): `/doc` lists the files not yet documented, grouped by directory;
// `/doc <dir>` marks a directory done. Progress lives in <stateDir>/doc-mode-progress.json so a
// later session resumes where this one stopped.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { IgnoreRules, walkWorkspace } from "../core/files/index.js";
import { fileSizeLimits } from "../core/indexing/workspace-rules.js";
import { resolveInWorkspace } from "./tools/context.js";
import type { RagWorkspace } from "./workspace.js";

export const DOC_PROGRESS_FILE = "doc-mode-progress.json";

/** Files worth documenting: source code, not prose, data or images. */
const NOT_CODE = new Set(["markdown", "text", "json", "yaml", "toml", "xml", "csv", "image", "pdf", "html", "css", "svg"]);

export interface DocProgress {
  /** Workspace-relative directories ("" = root) marked documented, with when. */
  documented: Record<string, string>;
}

export function readDocProgress(stateDir: string): DocProgress {
  try {
    const raw = JSON.parse(readFileSync(join(stateDir, DOC_PROGRESS_FILE), "utf8"));
    if (raw && typeof raw.documented === "object") return { documented: raw.documented };
  } catch {
    // missing or unreadable: start fresh
  }
  return { documented: {} };
}

function writeDocProgress(stateDir: string, progress: DocProgress): void {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, DOC_PROGRESS_FILE);
  writeFileSync(file + ".tmp", JSON.stringify(progress, null, 2) + "\n");
  renameSync(file + ".tmp", file);
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

async function codeFilesByDir(ws: RagWorkspace): Promise<Map<string, string[]>> {
  const cfg = ws.config;
  const walked = await walkWorkspace(ws.root, { rules: new IgnoreRules(ws.root, cfg.indexing), ...fileSizeLimits(cfg.indexing) });
  const byDir = new Map<string, string[]>();
  for (const f of walked.files) {
    const lang = ws.deps.languageForPath(f.path);
    if (!lang || NOT_CODE.has(lang)) continue;
    const d = dirOf(f.path);
    byDir.set(d, [...(byDir.get(d) ?? []), f.path]);
  }
  return byDir;
}

/** Handles `/doc [dir]` and returns the text appended to the message. */
export async function runDocCommand(ws: RagWorkspace, args: string): Promise<string> {
  if (!ws.config.documentationMode.enabled) {
    return "Documentation mode is off. Set `documentationMode.enabled: true` in opencode-rag.json to use /doc.";
  }
  const progress = readDocProgress(ws.stateDir);
  const lines: string[] = [];
  const target = args.trim();
  if (target) {
    const path = resolveInWorkspace(ws.root, target);
    if (typeof path === "string") return path;
    if (!existsSync(path.abs) || !statSync(path.abs).isDirectory()) {
      return `\`${target}\` is not a directory of this workspace; pass a directory from the /doc list, e.g. /doc src/auth`;
    }
    progress.documented[path.rel] = new Date().toISOString();
    writeDocProgress(ws.stateDir, progress);
    lines.push(`Marked \`${path.rel || "."}/\` as documented.`);
  }
  const byDir = await codeFilesByDir(ws);
  const open = [...byDir.entries()].filter(([d]) => !(d in progress.documented)).sort((a, b) => a[0].localeCompare(b[0]));
  const fileCount = open.reduce((n, [, fs]) => n + fs.length, 0);
  const doneDirs = Object.keys(progress.documented).length;
  if (open.length === 0) {
    lines.push(`## Documentation — all done\nEvery directory with code is marked documented (${doneDirs}). Progress: ${join(ws.stateDir, DOC_PROGRESS_FILE)}`);
    return lines.join("\n\n");
  }
  lines.push(
    `## Documentation — ${fileCount} undocumented file(s) in ${open.length} director${open.length === 1 ? "y" : "ies"} (${doneDirs} done)`,
    "Pick ONE directory below. For each of its files: get_file_skeleton, read it, then add or update doc comments on the public symbols (keep existing comments, change no code). When the directory is done, run `/doc <directory>` to mark it and get the next list.",
  );
  const batch = Math.max(1, ws.config.documentationMode.batchSize);
  for (const [d, files] of open.slice(0, batch)) {
    lines.push(`### ${d || "."}/ (${files.length} file${files.length === 1 ? "" : "s"})\n${files.sort().map((f) => `- ${f}`).join("\n")}`);
  }
  if (open.length > batch) lines.push(`_${open.length - batch} more director${open.length - batch === 1 ? "y" : "ies"}: ${open.slice(batch).map(([d]) => (d || ".") + "/").join(", ")}_`);
  return lines.join("\n\n");
}

