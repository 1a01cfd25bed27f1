// `opencode-rag quirk add|list|lint|test|forget`: the user's view of quirk memory (F28).
import type { Command, CommandContext } from "../command.js";
import { UsageError } from "../command.js";
import { formatQuirkLine, QUIRK_TYPES, type Quirk } from "../../core/memory/quirks.js";

const USAGE = `Usage: opencode-rag quirk <action> [options]

  add "<text>" [--type T] [--tag TAG[,TAG]]... [--confidence N]
                  remember a fact (types: ${QUIRK_TYPES.join(", ")})
  list [--json]   every quirk, with its confidence after decay
  lint [--json]   low-confidence, stale (decayed) and near-duplicate quirks
  test "<text>"   would this text duplicate a stored quirk, and which
  forget <id>     remove a quirk (recorded in the audit log)
  recall "<text>" [--top-k N] [--json]
                  what an agent would recall for this text`;

function row(q: Quirk, confidence: number): string {
  return `${q.id}  conf ${confidence.toFixed(2)}  ${formatQuirkLine(q).slice(2)}`;
}

async function run(ctx: CommandContext): Promise<number> {
  const [action, ...rest] = ctx.positionals;
  const text = rest.join(" ").trim();
  const json = ctx.values.json === true;
  if (!action) throw new UsageError("quirk needs an action: add, list, lint, test, forget or recall");
  const memory = await (await ctx.engine()).memory!();
  switch (action) {
    case "add": {
      if (!text) throw new UsageError('quirk add needs the text to remember: opencode-rag quirk add "..."');
      const confidence = ctx.values.confidence === undefined ? undefined : Number(ctx.values.confidence);
      if (confidence !== undefined && !(confidence > 0 && confidence <= 1)) throw new UsageError("--confidence must be a number in (0, 1]");
      const result = await memory.add({
        content: text,
        type: ctx.values.type as string | undefined,
        // --tag a --tag b, --tag a,b and --tags a,b all work.
        tags: [...((ctx.values.tag as string[] | undefined) ?? []), ...((ctx.values.tags as string[] | undefined) ?? [])]
          .flatMap((t) => t.split(","))
          .map((t) => t.trim())
          .filter(Boolean),
        confidence,
        source: "user",
      });
      if (!result.ok) {
        ctx.err(`opencode-rag: not stored: ${result.reason}`);
        return result.duplicateOf ? 0 : 1;
      }
      ctx.out(`remembered ${result.quirk.id}${result.redacted ? ` (${result.redacted} secret(s) removed)` : ""}`);
      return 0;
    }
    case "list": {
      const list = await memory.list();
      if (json) ctx.out(JSON.stringify(list.map((q) => ({ ...q, effectiveConfidence: memory.confidenceOf(q) })), null, 2));
      else ctx.out(list.length ? list.map((q) => row(q, memory.confidenceOf(q))).join("\n") : "no quirks yet");
      return 0;
    }
    case "lint": {
      const findings = await memory.lint();
      if (json) ctx.out(JSON.stringify(findings, null, 2));
      else ctx.out(findings.length ? findings.map((f) => `${f.id}  ${f.kind}: ${f.detail}`).join("\n") : "no findings");
      return 0;
    }
    case "test": {
      if (!text) throw new UsageError('quirk test needs a text: opencode-rag quirk test "..."');
      const dup = await memory.findDuplicate(text);
      if (json) ctx.out(JSON.stringify(dup ? { duplicate: true, id: dup.quirk.id, similarity: dup.similarity, content: dup.quirk.content } : { duplicate: false }));
      else ctx.out(dup ? `duplicate of ${dup.quirk.id} (similarity ${dup.similarity.toFixed(2)}): ${dup.quirk.content}` : "not a duplicate");
      return 0;
    }
    case "forget": {
      if (!text) throw new UsageError("quirk forget needs a quirk id (see `opencode-rag quirk list`)");
      if (!(await memory.forget(text))) {
        ctx.err(`opencode-rag: no quirk with id ${text} (see \`opencode-rag quirk list\`)`);
        return 1;
      }
      ctx.out(`forgot ${text}`);
      return 0;
    }
    case "recall": {
      if (!text) throw new UsageError('quirk recall needs a text: opencode-rag quirk recall "..."');
      const topK = ctx.values["top-k"] === undefined ? 5 : Number(ctx.values["top-k"]);
      const hits = await memory.recall(text, topK);
      if (json) ctx.out(JSON.stringify(hits.map((h) => ({ ...h.quirk, score: h.score, effectiveConfidence: h.confidence }))));
      else ctx.out(hits.length ? hits.map((h) => `${h.score.toFixed(2)}  ${row(h.quirk, h.confidence)}`).join("\n") : "nothing recalled");
      return 0;
    }
    default:
      throw new UsageError(`unknown quirk action "${action}": use add, list, lint, test, forget or recall`);
  }
}

export const quirkCommand: Command = {
  name: "quirk",
  summary: "add, list, lint, test or forget remembered quirks",
  help: USAGE,
  allowPositionals: true,
  options: {
    type: { type: "string" },
    tag: { type: "string", multiple: true },
    tags: { type: "string", multiple: true },
    confidence: { type: "string" },
    "top-k": { type: "string" },
    json: { type: "boolean" },
  },
  run,
};
