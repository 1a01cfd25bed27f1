// Session logs (F26): every OpenCode event of a session, and every retrieval with its metrics,
// appended as JSON lines to <stateDir>/eval-sessions/<sessionID>.jsonl. The eval command reads
// them back for token-usage analysis. Node-only (fs): kept apart from the portable modules.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { redact as redactText } from "../redact.js";

export const SESSION_LOG_DIR = "eval-sessions";

/** What one retrieval cost and found; logged once per retrieval. */
export interface RetrievalMetrics {
  /** Which path retrieved: "search_semantic", "inject-files", "inject-chunks", "read", ... */
  source: string;
  query: string;
  chunkCount: number;
  /** cl100k tokens of the context handed to the model. */
  contextTokens: number;
  topScore: number | null;
  latencyMs: number;
}

export type SessionLogEntry =
  | { type: "event"; time: string; eventType: string; event: unknown }
  | ({ type: "retrieval"; time: string } & RetrievalMetrics);

/** Session ids become file names: keep them to a safe alphabet. */
export function sessionLogPath(stateDir: string, sessionID: string): string {
  const safe = sessionID.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 200) || "unknown";
  return join(stateDir, SESSION_LOG_DIR, `${safe}.jsonl`);
}

/** Keys whose string values are identifiers or enums, never user text: kept verbatim. */
const IDENTIFIER_KEYS = new Set([
  "id", "sessionID", "messageID", "partID", "callID", "parentID", "projectID", "type", "role",
  "tool", "providerID", "modelID", "agent", "mode", "status", "eventType", "source", "time",
  "snapshot", "hash", "slug", "version", "field", "finish", "reason",
]);

/** Applies `redact` to every string value except identifiers, however deep. */
export function redactStrings(value: unknown, redact: (text: string) => string = redactText, key = ""): unknown {
  if (typeof value === "string") return IDENTIFIER_KEYS.has(key) ? value : redact(value);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, redact, key));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactStrings(v, redact, k);
    return out;
  }
  return value;
}

export interface SessionLogOptions {
  /** Applied to every logged text (prompts, answers, tool output); the product's redactor by default. */
  redact?: (text: string) => string;
}

export class SessionLog {
  private readonly madeDirs = new Set<string>();

  constructor(
    private readonly stateDir: string,
    private readonly options: SessionLogOptions = {},
  ) {}

  /** The last write failure (read-only workspace, full disk); logging itself never throws. */
  lastError: Error | null = null;

  private append(sessionID: string, entry: SessionLogEntry): void {
    try {
      const file = sessionLogPath(this.stateDir, sessionID);
      const dir = join(this.stateDir, SESSION_LOG_DIR);
      if (!this.madeDirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        this.madeDirs.add(dir);
      }
      // Secrets never reach the log, whoever built this SessionLog.
      const safe = redactStrings(entry, this.options.redact ?? redactText);
      appendFileSync(file, JSON.stringify(safe) + "\n");
    } catch (err) {
      // A search result must not be lost because its log line could not be written.
      this.lastError = err as Error;
    }
  }

  logEvent(sessionID: string, eventType: string, event: unknown): void {
    this.append(sessionID, { type: "event", time: new Date().toISOString(), eventType, event });
  }

  logRetrieval(sessionID: string, metrics: RetrievalMetrics): void {
    this.append(sessionID, { type: "retrieval", time: new Date().toISOString(), ...metrics });
  }
}

/** The entries of one session log; unreadable lines (a crash mid-write) are skipped. */
export function readSessionLog(file: string): SessionLogEntry[] {
  const out: SessionLogEntry[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as SessionLogEntry);
    } catch {
      // a torn last line: ignore it
    }
  }
  return out;
}

/** Every session log under a state folder: [sessionID, entries], oldest file name first. */
export function readSessionLogs(stateDir: string): Array<[string, SessionLogEntry[]]> {
  const dir = join(stateDir, SESSION_LOG_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => [f.slice(0, -".jsonl".length), readSessionLog(join(dir, f))]);
}
