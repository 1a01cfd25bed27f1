// `opencode-rag status [--json]`: what is indexed, with what, how fresh, and what is running.
import type { Command } from "../command.js";
import type { IndexStatus } from "../../core/engine-types.js";
import { formatCount } from "../format.js";

function human(s: IndexStatus): string {
  const rows: Array<[string, string]> = [
    ["workspace", s.root],
    ["store", s.storeUri],
    ["chunks", formatCount(s.chunks)],
    ["files", formatCount(s.files)],
    ["provider", `${s.provider} (${s.model})${s.dimension ? `, ${s.dimension} dims` : ""}`],
    ["search", s.keywordOnlyReason ? `keyword-only: ${s.keywordOnlyReason}` : "hybrid (vectors + keywords)"],
    ["manifest", s.manifestStatus],
    ["last indexed", s.lastIndexedAt ?? "never"],
    ["up to date", `${formatCount(s.upToDateFiles)} files`],
    ["pending", `${formatCount(s.pendingFiles)} files`],
    ["watch", `${s.watch.state}${s.watch.backend ? ` (${s.watch.backend})` : ""}${s.watch.message ? `: ${s.watch.message}` : ""}`],
  ];
  if (s.storeDamage) rows.push(["damaged", `the store's files (${s.storeDamage}); the next \`opencode-rag index\` rebuilds it`]);
  if (s.skipped && s.skipped.total > 0) rows.push(["skipped", `${formatCount(s.skipped.total)} files in the last pass (listed with reasons by --json)`]);
  if (s.indexing) rows.push(["indexing", `${formatCount(s.indexing.filesDone)}/${formatCount(s.indexing.filesTotal)} files (since ${s.indexing.startedAt})`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n");
}

export const statusCommand: Command = {
  name: "status",
  summary: "show what is indexed and whether it is up to date",
  help: `Usage: opencode-rag status [--json]

  --json          print the status as JSON`,
  options: { json: { type: "boolean" } },
  async run(ctx) {
    const engine = await ctx.engine();
    const s = await engine.status();
    ctx.out(ctx.values.json === true ? JSON.stringify(s, null, 2) : human(s));
    return 0;
  },
};
