// `opencode-rag eval --sessions [STATE_DIR] [--json]` (F15): token usage of the OpenCode
// sessions the plugin logged (<store>/eval-sessions/*.jsonl) — what the model consumed, per
// session, next to what retrieval added to its context.
import { resolve } from "node:path";
import { loadConfig } from "../../core/config/load.js";
import { analyzeSession, formatSessionReports } from "../../core/telemetry/session-analysis.js";
import { readSessionLogs, SESSION_LOG_DIR } from "../../core/telemetry/session-log.js";

export const SESSIONS_USAGE = `       opencode-rag eval --sessions [STATE_DIR] [--json] [--config PATH]
                        token usage of the logged OpenCode sessions (default: this workspace's store)`;

export interface SessionsIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

export function runSessionsEval(argv: string[], io: SessionsIO): number {
  const at = argv.indexOf("--sessions");
  const next = argv[at + 1];
  const configAt = argv.indexOf("--config");
  let stateDir: string;
  if (next && !next.startsWith("--")) stateDir = resolve(next);
  else stateDir = loadConfig({ configPath: configAt >= 0 ? argv[configAt + 1] : undefined }).stateDir;
  const logs = readSessionLogs(stateDir);
  if (logs.length === 0) {
    io.stderr(`opencode-rag eval: no session logs in ${resolve(stateDir, SESSION_LOG_DIR)}: they are written by the OpenCode plugin while you chat`);
    return 1;
  }
  const reports = logs.map(([id, entries]) => analyzeSession(id, entries));
  io.stdout(argv.includes("--json") ? JSON.stringify(reports, null, 2) : formatSessionReports(reports));
  return 0;
}
