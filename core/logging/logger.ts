// A Logger that appends JSON lines to a file. Logging must never break indexing or a host,
// so every write is guarded and a failing file is reported once to the fallback sink.
import { appendFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { LogLevel, Logger } from "../engine-types.js";
import { redact, redactDeep } from "../redact.js";

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, error: 30 };

export interface FileLoggerOptions {
  level: LogLevel;
  /** Absolute path, or relative to `root`; empty string disables the file. */
  filePath: string;
  root: string;
  /** Where records also go (e.g. stderr in the CLI with --debug); optional. */
  mirror?: (line: string) => void;
  /** Fixed fields added to every record (e.g. { component: "cli" }). */
  fields?: Record<string, unknown>;
}

/** A logger that drops everything; the default when a host passes none. */
export const silentLogger: Logger = { debug() {}, info() {}, error() {} };

export function isLogLevel(value: unknown): value is LogLevel {
  return value === "debug" || value === "info" || value === "error";
}

/** Errors are not JSON-serialisable as is; keep message and code, which is what a reader needs. */
function plain(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!data) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    out[k] = v instanceof Error ? { message: v.message, ...(("code" in v) ? { code: (v as { code: unknown }).code } : {}) } : v;
  }
  return out;
}

export function createFileLogger(options: FileLoggerOptions): Logger {
  const threshold = LEVEL_RANK[options.level] ?? LEVEL_RANK.info;
  const file = options.filePath ? (isAbsolute(options.filePath) ? options.filePath : resolve(options.root, options.filePath)) : null;
  let fileBroken = false;
  let dirReady = false;

  function write(level: LogLevel, message: string, data?: Record<string, unknown>): void {
    if (LEVEL_RANK[level] < threshold) return;
    let line: string;
    try {
      // Error messages and data carry user text (queries, file content, URLs): redacted like every file we write.
      line = JSON.stringify({ time: new Date().toISOString(), level, message: redact(message), ...options.fields, ...(redactDeep(plain(data)) as Record<string, unknown> | undefined) });
    } catch {
      line = JSON.stringify({ time: new Date().toISOString(), level, message, note: "data not serialisable" });
    }
    try {
      options.mirror?.(line);
    } catch {
      // a broken mirror must not stop the file
    }
    if (!file || fileBroken) return;
    try {
      if (!dirReady) {
        // Never bring back a deleted workspace just to log into it.
        if (!existsSync(options.root)) return;
        mkdirSync(dirname(file), { recursive: true });
        dirReady = true;
      }
      appendFileSync(file, line + "\n");
    } catch (err) {
      fileBroken = true;
      try {
        process.stderr.write(`opencode-rag: cannot write the log file ${file} (${(err as Error).message}); logging to it is off\n`);
      } catch {
        // nothing left to tell
      }
    }
  }

  return {
    debug: (m, d) => write("debug", m, d),
    info: (m, d) => write("info", m, d),
    error: (m, d) => write("error", m, d),
  };
}

/** Sends every record to both loggers; used when a host brings its own logger. */
export function teeLogger(a: Logger, b: Logger): Logger {
  const safe = (fn: () => void) => {
    try {
      fn();
    } catch {
      // a host logger that throws must not break the core
    }
  };
  return {
    debug: (m, d) => (safe(() => a.debug(m, d)), safe(() => b.debug(m, d))),
    info: (m, d) => (safe(() => a.info(m, d)), safe(() => b.info(m, d))),
    error: (m, d) => (safe(() => a.error(m, d)), safe(() => b.error(m, d))),
  };
}
