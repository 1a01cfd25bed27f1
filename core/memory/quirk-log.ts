// The append-only audit of quirk events, `<stateDir>/quirks.jsonl` (Node only).
// One JSON object per line; a torn last line (crash mid-append) is skipped, never fatal.
import { appendFile, mkdir, readFile, stat } from "node:fs/promises";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { QuirkEvent, QuirkLog } from "./quirks.js";
import { redactDeep } from "../redact.js";

/** Fields of quirk events and diagnostics that are ids, enums or times, never free text. */
const KEEP_KEYS = new Set(["op", "at", "id", "ids", "type", "createdAt", "confirmedAt", "source", "sessionId", "rule", "kind"]);

export const QUIRK_LOG_FILE = "quirks.jsonl";
export const MEMORY_DIAGNOSTICS_FILE = "memory-diagnostics.jsonl";

export class JsonlQuirkLog implements QuirkLog {
  constructor(private readonly file: string) {}

  async readAll(): Promise<QuirkEvent[]> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const events: QuirkEvent[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        const e = JSON.parse(line) as QuirkEvent;
        if (e && typeof e === "object" && typeof e.op === "string") events.push(e);
      } catch {
        // a torn line from an interrupted append
      }
    }
    return events;
  }

  async version(): Promise<string> {
    try {
      const st = await stat(this.file);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return "absent";
    }
  }

  async append(event: QuirkEvent): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    // Content is redacted when a quirk is added; this is the last gate before the disk.
    await appendFile(this.file, JSON.stringify(redactDeep(event, KEEP_KEYS)) + "\n", "utf8");
  }
}

/**
 * A diagnostics sink appending JSON lines. Synchronous, so lines keep their order and are on
 * disk when the call returns; failures are swallowed (diagnostics never break memory).
 */
export function jsonlDiagnostics(file: string): (entry: object) => void {
  let dirReady = false;
  return (entry) => {
    try {
      if (!dirReady) mkdirSync(dirname(file), { recursive: true });
      dirReady = true;
      appendFileSync(file, JSON.stringify(redactDeep(entry, KEEP_KEYS)) + "\n", "utf8");
    } catch {
      // a read-only or full disk must not break the chat
    }
  };
}
