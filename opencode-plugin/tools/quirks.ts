// add_quirk and recall_quirks (F28): the agent's write and read access to quirk memory.
// Refusals (trust monitor) and duplicates come back as plain answers the agent can act on.
import { z } from "zod";
import { formatQuirkLine, QUIRK_TYPES } from "../../core/memory/quirks.js";
import type { RagWorkspace } from "../workspace.js";
import { requiredText, wholeNumber } from "./args.js";
import { engineOrMessage } from "./context.js";


export const addQuirkArgs = {
  content: z.string().min(5).max(600).describe("The fact in one or two sentences, e.g. 'npm install needs --legacy-peer-deps because of the react peer range'"),
  type: z.enum(QUIRK_TYPES).optional().describe("gotcha (default) | preference | decision | environment-constraint"),
  tags: z.array(z.string().min(1).max(40)).max(10).optional().describe("Up to 10 short tags, e.g. ['installation']"),
  confidence: z.number().min(0.05).max(1).optional().describe("How sure you are, 0.05-1 (default 0.8)"),
};

export const recallQuirksArgs = {
  query: requiredText(1000, "query is empty: say what you need to remember, e.g. 'lancedb type casting'").describe("What you need to remember, e.g. 'lancedb type casting'"),
  topK: wholeNumber("topK", 1, 10).optional().describe("Number of quirks, 1-10 (default 5)"),
};

export const AddQuirkSchema = z.object(addQuirkArgs);
export const RecallQuirksSchema = z.object(recallQuirksArgs);

export async function runAddQuirk(ws: RagWorkspace, input: ReturnType<(typeof AddQuirkSchema)["parse"]>): Promise<string> {
  const engine = await engineOrMessage(ws);
  if (typeof engine === "string") return engine;
  if (!engine.config.memory.enabled) return "Quirk memory is off (memory.enabled is false in the opencode-rag config).";
  const memory = await engine.memory!();
  const result = await memory.add({ ...input, source: "agent" });
  if (!result.ok) return result.duplicateOf ? `Already remembered (${result.duplicateOf.id}); marked as confirmed.` : `Not stored: ${result.reason}.`;
  const note = result.redacted ? ` ${result.redacted} secret(s) were removed before storing.` : "";
  return `Remembered ${result.quirk.id}: ${formatQuirkLine(result.quirk).slice(2)}${note}`;
}

export async function runRecallQuirks(ws: RagWorkspace, input: ReturnType<(typeof RecallQuirksSchema)["parse"]>): Promise<string> {
  const engine = await engineOrMessage(ws);
  if (typeof engine === "string") return engine;
  if (!engine.config.memory.enabled) return "Quirk memory is off (memory.enabled is false in the opencode-rag config).";
  const memory = await engine.memory!();
  const hits = await memory.recall(input.query, input.topK ?? 5);
  if (hits.length === 0) return `No quirk matches "${input.query}". Nothing has been remembered about this yet.`;
  return [`Quirks for "${input.query}":`, ...hits.map((h) => `${formatQuirkLine(h.quirk)} (score ${h.score.toFixed(2)}, confidence ${h.confidence.toFixed(2)})`)].join("\n");
}

export const ADD_QUIRK_DESCRIPTION =
  "Remember a non-obvious fact for future sessions: a gotcha and its fix, an environment constraint, a user preference or a decision. One or two sentences. Destructive advice and secrets are refused.";
export const RECALL_QUIRKS_DESCRIPTION =
  "Recall facts remembered in earlier sessions (gotchas, preferences, decisions, environment constraints). Use when you hit an error or before retrying something that failed.";
