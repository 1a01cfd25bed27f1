// Optional replacement of OpenCode's `read` (F25, openCode.readOverride): the file from disk,
// exactly as asked, plus chunks from other files related to it above a score threshold.
// Retrieval is best effort: the file is returned even when the index fails.
import { z } from "zod";
import { fitSections } from "../format.js";
import { formatFileList } from "../injection.js";
import type { RagWorkspace } from "../workspace.js";
import { readWorkspaceFile } from "./context.js";


export const readArgs = {
  filePath: z.string().min(1).describe("The path of the file to read (relative to the workspace or absolute)"),
  offset: z.number().int().min(0).optional().describe("The line number to start reading from (0-based)"),
  limit: z.number().int().min(1).optional().describe("The number of lines to read (default 2000)"),
};
export const ReadSchema = z.object(readArgs);
export type ReadInput = ReturnType<(typeof ReadSchema)["parse"]>;

const DEFAULT_LIMIT = 2000;

async function relatedFiles(ws: RagWorkspace, rel: string, content: string): Promise<string | null> {
  try {
    const engine = await ws.engine();
    const min = engine.config.openCode.readOverrideMinScore;
    const query = `${rel}\n${content.slice(0, 1500)}`;
    const results = (await engine.search(query, { topK: 15 })).filter((r) => r.chunk.filePath !== rel && r.score >= min && r.chunk.kind !== "quirk");
    if (results.length === 0) return null;
    return fitSections("Related code elsewhere (opencode-rag):", formatFileList(results), engine.config.openCode.toolTokenBudget / 4, { separator: "\n", omittedNote: () => "" }).text;
  } catch (err) {
    ws.logger.error("read override: retrieval failed; returning the file alone", { error: err as Error });
    return null;
  }
}

export async function runRead(ws: RagWorkspace, input: ReadInput): Promise<string> {
  const read = await readWorkspaceFile(ws, input.filePath, { listDirectory: true });
  if (typeof read === "string") return read;
  if (read.kind === "directory") return read.entries.join("\n");
  const { path, text: content } = read;
  if (content.includes("\u0000")) return `${path.rel} is a binary file and cannot be shown as text.`;
  const all = content.replace(/\n$/, "").split("\n");
  const from = input.offset ?? 0;
  const slice = all.slice(from, from + (input.limit ?? DEFAULT_LIMIT));
  const body = slice.map((line, i) => `${String(from + i + 1).padStart(5, "0")}| ${line}`).join("\n");
  const more = from + slice.length < all.length ? `\n\n(File has more lines. Use 'offset' to read beyond line ${from + slice.length})` : "";
  const related = await relatedFiles(ws, path.rel, content);
  return `<file>\n${body}${more}\n</file>${related ? `\n\n${related}` : ""}`;
}
