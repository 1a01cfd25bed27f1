// Wiki mode (F24): the agent keeps a project wiki in .opencode/wiki/ following the protocol in
// the system prompt; `/wiki` reports its state, `/wiki lint` and `/wiki seed` hand the agent
// the matching instructions.
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { RagWorkspace } from "./workspace.js";

export const WIKI_DIR = join(".opencode", "wiki");

function listPages(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries: string[];
    try {
      entries = readdirSync(d);
    } catch {
      continue;
    }
    for (const name of entries) {
      const abs = join(d, name);
      // lstat: a linked folder is not followed (a link to ".." would never end).
      if (lstatSync(abs).isDirectory()) stack.push(abs);
      else if (name.endsWith(".md")) out.push(relative(dir, abs).split("\\").join("/"));
    }
  }
  return out.sort();
}

/** The last dated entry of log.md (its last "## " heading and what follows). */
function lastLogEntry(logFile: string): string | null {
  try {
    // Only a regular file of sane size: a FIFO named log.md would block the command forever.
    const st = statSync(logFile);
    if (!st.isFile() || st.size > 4 * 1024 * 1024) return null;
    const text = readFileSync(logFile, "utf8").trim();
    const i = text.lastIndexOf("\n## ");
    const entry = i >= 0 ? text.slice(i + 1) : text;
    return entry.split("\n").slice(0, 6).join("\n") || null;
  } catch {
    return null;
  }
}

export function wikiStatus(root: string): string {
  const dir = join(root, WIKI_DIR);
  if (!existsSync(dir)) return "## Wiki status\nNo wiki yet (.opencode/wiki/ does not exist). Run `/wiki seed` to create it from the README, the file tree and the code.";
  const pages = listPages(dir);
  const subdirs = [...new Set(pages.filter((p) => p.includes("/")).map((p) => p.slice(0, p.indexOf("/"))))];
  const counts = subdirs.map((s) => `${s}/ ${pages.filter((p) => p.startsWith(s + "/")).length}`).join(", ");
  const last = lastLogEntry(join(dir, "log.md"));
  return [
    "## Wiki status",
    `- pages: ${pages.length}${counts ? ` (${counts})` : ""}`,
    `- index.md: ${pages.includes("index.md") ? "present" : "missing"}`,
    `- log.md: ${pages.includes("log.md") ? "present" : "missing"}`,
    last ? `- latest log entry:\n${last.split("\n").map((l) => "  " + l).join("\n")}` : "- latest log entry: none",
  ].join("\n");
}

const LINT_INSTRUCTIONS = `## Wiki lint
Health-check .opencode/wiki/ now:
1. Orphans: pages not linked from index.md or any other page.
2. Stale pages: pages whose "sources" files changed or no longer exist (check with get_file_skeleton / find_usages).
3. Contradictions between pages, and between pages and the code.
4. Missing cross-references between related pages.
Fix what you can, then append a dated "## <date> lint" entry with the findings to log.md.`;

const SEED_INSTRUCTIONS = `## Wiki seed
Create the initial wiki in .opencode/wiki/ following the wiki protocol:
1. Read the README and the top-level file tree; use get_file_skeleton on the main modules.
2. Write index.md (one line per page), log.md (a first dated "## <date> seed" entry), entities/ pages for the main modules and data types, concepts/ pages for conventions you observe in the code.
3. Every page gets frontmatter (title, sources, updated) and relative links to related pages.`;

/** Handles `/wiki [status|lint|seed]` and returns the text appended to the message. */
export function runWikiCommand(ws: RagWorkspace, args: string): string {
  if (!ws.config.wikiMode.enabled) return "Wiki mode is off. Set `wikiMode.enabled: true` in opencode-rag.json to use /wiki.";
  const sub = args.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const status = wikiStatus(ws.root);
  if (sub === "" || sub === "status") return status;
  if (sub === "lint") return `${LINT_INSTRUCTIONS}\n\n${status}`;
  if (sub === "seed") return `${SEED_INSTRUCTIONS}\n\n${status}`;
  return `Unknown /wiki subcommand "${sub}": use /wiki, /wiki lint or /wiki seed.`;
}
