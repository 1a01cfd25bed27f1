// Auto-capture (F28): memory that does not depend on the agent remembering to call add_quirk.
// - passive: after a turn that shows an error signal, the description LLM extracts quirks
//   from that exchange;
// - session end: one extraction pass over the whole transcript;
// - prompt enforcement: mandatory capture rules in the guidance (text below).
// Every candidate goes through the same gates as a manual add: trust monitor, secret
// stripping, dedup (a near-duplicate confirms the old quirk instead).
import type { ChatClient } from "../types.js";
import { stripSecrets } from "../redact.js";
import type { QuirkMemory, QuirkType } from "./quirks.js";
import { QUIRK_TYPES } from "./quirks.js";

/** Mandatory capture rules appended to the guidance when `memory.promptEnforcement` is on. */
export const QUIRK_ENFORCEMENT_RULES = `Memory rules (mandatory): call add_quirk, in one or two sentences, right after you
- fix a build, test or type error whose cause was not obvious from the message;
- find a constraint the docs do not state (versions, ports, env vars, order of steps);
- settle on a workaround, a convention, or a decision the user made;
and call recall_quirks before retrying something that failed.`;

const ERROR_SIGNALS =
  /\b(error|exception|traceback|failed|failure|panic(ked)?|segmentation fault|cannot find|not found|undefined is not|ENOENT|EACCES|ECONNREFUSED|exit code [1-9]|npm ERR!|TS\d{4}|E\d{4}|AssertionError|FAIL\b)/i;

/** Whether an exchange shows signs of something having gone wrong (worth learning from). */
export function detectErrorSignal(text: string): boolean {
  return ERROR_SIGNALS.test(text);
}

const EXTRACT_SYSTEM = `You extract durable, project-specific lessons ("quirks") from a coding session.
A quirk is a non-obvious fact a future session would need: a gotcha and its fix, a constraint
of the environment, a user preference, or a decision. Skip generic programming knowledge,
anything temporary, and anything destructive or unsafe. Reply with a JSON array (possibly
empty) of objects {"content": "<one or two sentences>", "type": "${QUIRK_TYPES.join('" | "')}", "tags": ["..."]}.
Reply with the JSON only.`;

export interface QuirkCandidate {
  content: string;
  type: QuirkType;
  tags: string[];
}

/** Parses the model's answer leniently: a JSON array, possibly inside a code fence. */
export function parseCandidates(answer: string): QuirkCandidate[] {
  const match = /\[[\s\S]*\]/.exec(answer);
  if (!match) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(match[0]);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: QuirkCandidate[] = [];
  for (const item of raw) {
    const c = item as { content?: unknown; type?: unknown; tags?: unknown };
    if (typeof c?.content !== "string" || !c.content.trim()) continue;
    const type = QUIRK_TYPES.includes(c.type as QuirkType) ? (c.type as QuirkType) : "gotcha";
    const tags = Array.isArray(c.tags) ? c.tags.filter((t): t is string => typeof t === "string").slice(0, 5) : [];
    out.push({ content: c.content.trim(), type, tags });
  }
  return out.slice(0, 5);
}

export interface CaptureOptions {
  chat: ChatClient;
  model: string;
  memory: QuirkMemory;
  /** Characters of transcript sent to the LLM at most (the tail is kept: it holds the outcome). */
  maxTranscriptChars?: number;
}

export interface CaptureOutcome {
  stored: string[];
  confirmed: string[];
  refused: Array<{ content: string; reason: string }>;
}

/**
 * Extracts quirks from a transcript and stores them. `mode` "turn" is gated on an error
 * signal (passive capture); "session" always runs (session-end extraction).
 */
export async function captureQuirks(transcript: string, mode: "turn" | "session", o: CaptureOptions): Promise<CaptureOutcome> {
  const outcome: CaptureOutcome = { stored: [], confirmed: [], refused: [] };
  const started = Date.now();
  if (mode === "turn" && !detectErrorSignal(transcript)) return outcome;
  const limit = o.maxTranscriptChars ?? 12_000;
  // Secrets never leave the machine in a prompt either.
  const clean = stripSecrets(transcript.length > limit ? transcript.slice(-limit) : transcript).text;
  let answer: string;
  try {
    answer = (await o.chat.chat(o.model, [
      { role: "system", text: EXTRACT_SYSTEM },
      { role: "user", text: clean },
    ], 600)).text;
  } catch (err) {
    o.memory.record({ op: "error", where: `capture-${mode}`, latencyMs: Date.now() - started, error: String((err as Error).message ?? err) });
    return outcome;
  }
  for (const c of parseCandidates(answer)) {
    const result = await o.memory.add({ content: c.content, type: c.type, tags: c.tags, confidence: 0.6, source: "capture" });
    if (result.ok) outcome.stored.push(result.quirk.id);
    else if (result.duplicateOf) outcome.confirmed.push(result.duplicateOf.id);
    else outcome.refused.push({ content: c.content, reason: result.reason });
  }
  o.memory.record({ op: "capture", mode, latencyMs: Date.now() - started, stored: outcome.stored.length, confirmed: outcome.confirmed.length, refused: outcome.refused.length });
  return outcome;
}
