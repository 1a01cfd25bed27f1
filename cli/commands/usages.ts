// `opencode-rag usages SYMBOL`: every file that uses an identifier. Its code (usages-run.ts)
// and the agent tool's it shares, with their schema library, load only when it runs.
import type { Command } from "../command.js";

export const usagesCommand: Command = {
  name: "usages",
  summary: "every file that uses an identifier, with counts and kinds, and its uses page by page",
  help: `Usage: opencode-rag usages SYMBOL [--file F] [--offset N] [--top-k N] [--path PREFIX] [--comments] [--json]

Lists every file that references SYMBOL (an identifier, e.g. parseConfig) with its count and
kinds of use (import, re-export, call, type), importers first and tests last, then the uses
with the line before and after, taken in turn from each file; the definition is left out. The
same answer the agent's find_usages tool gives.

  --file F         only this file's uses (a workspace-relative path from the list)
  --offset N       skip N uses: the answer names the offset of the next page
  --top-k N        uses per page, 1-100 (default 30)
  --path PREFIX    only files under this workspace-relative prefix
  --comments       also count mentions in comments and strings
  --json           print {symbol, total, files, offset, uses, remaining, nextOffset}`,
  options: {
    file: { type: "string" },
    offset: { type: "string" },
    "top-k": { type: "string", short: "k" },
    path: { type: "string" },
    comments: { type: "boolean" },
    json: { type: "boolean" },
  },
  allowPositionals: true,
  async run(ctx) {
    const { runUsages } = await import("./usages-run.js");
    return runUsages(ctx);
  },
};
