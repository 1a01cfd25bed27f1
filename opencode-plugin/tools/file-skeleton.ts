// get_file_skeleton (F18): the outline of any workspace file, indexed or not — tree-sitter when
// a grammar covers it, declaration-looking lines otherwise, the line count as a last resort.
import { z } from "zod";
import { countKinds, lineCount, outlineFromTree, regexOutline, type OutlineItem } from "../../core/symbols/index.js";
import { fitSections } from "../format.js";
import type { RagWorkspace } from "../workspace.js";
import { requiredText } from "./args.js";
import { parsedInProcess, readWorkspaceFile } from "./context.js";


export const fileSkeletonArgs = {
  filePath: requiredText(1000, "filePath is empty: give the file's path relative to the workspace root, e.g. 'src/app.ts'").describe("File path, relative to the workspace root (absolute paths inside the workspace work too)"),
};
export const FileSkeletonSchema = z.object(fileSkeletonArgs);

const KIND_ICON: Record<string, string> = {
  function: "ƒ",
  method: "ƒ",
  constructor: "ƒ",
  class: "□",
  struct: "□",
  union: "□",
  object: "□",
  record: "□",
  interface: "◇",
  trait: "◇",
  protocol: "◇",
  type: "τ",
  enum: "ε",
  impl: "▸",
  extension: "▸",
  module: "§",
  namespace: "§",
  rule: "#",
  heading: "#",
  suite: "≡",
  test: "✓",
};

function renderOutline(items: OutlineItem[], depth: number, out: string[]): void {
  for (const item of items) {
    const icon = KIND_ICON[item.kind] ?? "·";
    const range = item.startLine === item.endLine ? `L${item.startLine}` : `L${item.startLine}-L${item.endLine}`;
    out.push(`${"  ".repeat(depth)}${icon} ${item.kind} ${item.name || "(anonymous)"}  ${range}`);
    renderOutline(item.children, depth + 1, out);
  }
}

/** "24 elements (9 function, 4 class, …)". */
function summary(items: OutlineItem[]): string {
  const counts = [...countKinds(items)].sort((a, b) => b[1] - a[1]);
  const total = counts.reduce((n, [, c]) => n + c, 0);
  return `${total} structural element(s) (${counts.map(([k, c]) => `${c} ${k}`).join(", ")})`;
}

export async function runFileSkeleton(ws: RagWorkspace, filePath: string): Promise<string> {
  const read = await readWorkspaceFile(ws, filePath);
  if (typeof read === "string") return read;
  if (read.kind !== "file") return `\`${read.path.rel}\` is a directory; pass a file path.`;
  const { path, text: content } = read;
  if (content.includes("\u0000")) return `\`${path.rel}\` is a binary file; it has no outline.`;
  const lines = lineCount(content);
  let items: OutlineItem[] = [];
  let method = "tree-sitter";
  let language = ws.deps.languageForPath(path.rel, content) ?? "text";
  const parses = parsedInProcess(ws, content);
  let hasGrammar = false;
  try {
    const parsed = parses ? await ws.deps.parseSource(path.rel, content) : null;
    if (parsed) {
      hasGrammar = true;
      language = parsed.language;
      items = parsed.outline ? await parsed.outline() : outlineFromTree(parsed.root);
    }
  } catch (err) {
    ws.logger.error("skeleton parse failed", { filePath: path.rel, error: err as Error });
  }
  if (items.length === 0) {
    items = regexOutline(content);
    method = "pattern match";
  }
  const header = `## Skeleton — ${path.rel} (${language}, ${lines} lines)`;
  if (items.length === 0) return `${header}\nNo declarations found; the file has ${lines} lines. Read it directly.`;
  const out: string[] = [];
  renderOutline(items, 0, out);
  const why = !parses ? "a file this large is not parsed here" : hasGrammar ? "its grammar declares nothing here" : "no grammar for this file";
  const head = `${header}\n${summary(items)}${method === "tree-sitter" ? "" : ` — found by pattern match (${why})`}`;
  // One line per element: fit whole lines, never a half one.
  return fitSections(head, out, ws.config.openCode.toolTokenBudget, {
    separator: "\n",
    omittedNote: (n) => `… ${n} more element(s) omitted (token budget)`,
  }).text;
}
