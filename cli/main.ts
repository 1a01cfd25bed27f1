// The `opencode-rag` command line: a thin host over the core's Engine. Parses the command and
// its options, runs it, and turns every failure into one line with the fix and an exit code.
import { parseArgs } from "node:util";
import { openEngine } from "../core/engine.js";
import { tuneOwnProcess } from "../core/own-process.js";
import { ConfigError } from "../core/config/validate.js";
import type { Engine, Logger } from "../core/engine-types.js";
import { cleanErrorMessage } from "../core/error-line.js";
import { IndexBusyError } from "../core/locking/busy.js";
import { PlainError } from "../core/errors/plain-error.js";
import { packageVersion } from "../core/paths.js";
import { COMMANDS } from "./command-table.js";
import { GLOBAL_HELP, GLOBAL_OPTIONS, hoistGlobalOptions, UsageError, type Command } from "./command.js";

/** Exit codes: 0 ok, 1 failure, 2 usage or configuration error, 3 another index pass is running. */
export const EXIT = { ok: 0, failure: 1, usage: 2, busy: 3 } as const;

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `opencode-rag ${packageVersion()}: local semantic code search

Usage: opencode-rag <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Options for every command:
${GLOBAL_HELP}

Run \`opencode-rag <command> --help\` for a command's options; \`opencode-rag --version\` prints the version.`;
}

const stderrLogger: Logger = {
  debug: (m, d) => process.stderr.write(`[debug] ${m}${d ? " " + JSON.stringify(d) : ""}\n`),
  info: (m, d) => process.stderr.write(`[info] ${m}${d ? " " + JSON.stringify(d) : ""}\n`),
  error: (m, d) => process.stderr.write(`[error] ${m}${d ? " " + JSON.stringify(d) : ""}\n`),
};

function firstLine(err: unknown): string {
  const msg = cleanErrorMessage(err instanceof Error ? err.message : String(err));
  return msg.trim() || (err instanceof Error ? err.name : "unknown error");
}

/** Node's option parser in one line of ours: its hints about positionals and dashes are for programmers. */
function optionProblem(message: string): string {
  const ambiguous = /^Option '(?:-\w, )?(-{1,2}[\w-]+)[^']*' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const option = ambiguous[1];
    return `${option} takes a value; write one that starts with a dash joined to it, as ${option}${option.startsWith("--") ? "=" : ""}-1`;
  }
  return message.split("\n")[0].replace(/\. To specify a positional.*$/, "");
}

export async function main(rawArgv: string[]): Promise<number> {
  const out = (t: string) => void process.stdout.write(t + "\n");
  const err = (t: string) => void process.stderr.write(t + "\n");
  const argv = hoistGlobalOptions(rawArgv);
  const name = argv[0];
  if (!name || name === "--help" || name === "-h" || name === "help") {
    out(mainHelp());
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === "--version" || name === "-v") {
    out(packageVersion());
    return EXIT.ok;
  }
  const command: Command | undefined = COMMANDS.find((c) => c.name === name);
  if (!command) {
    err(`opencode-rag: unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(", ")} (see opencode-rag --help)`);
    return EXIT.usage;
  }

  if (command.runRaw) return command.runRaw(argv.slice(1));
  const debugAsked = argv.includes("--debug");
  let engine: Engine | null = null;
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv.slice(1),
        options: { ...GLOBAL_OPTIONS, ...command.options },
        allowPositionals: command.allowPositionals ?? false,
        strict: true,
      });
    } catch (e) {
      throw new UsageError(optionProblem(firstLine(e)));
    }
    const values = parsed.values as Record<string, string | boolean | string[] | boolean[] | undefined>;
    if (values.help) {
      out(`${command.help}\n\nOptions for every command:\n${GLOBAL_HELP}`);
      return EXIT.ok;
    }
    const debug = values.debug === true;
    const configPath = values.config as string | undefined;
    const code = await command.run({
      values,
      positionals: parsed.positionals,
      configPath,
      debug,
      out,
      err,
      interactive: Boolean(process.stderr.isTTY) && !debug,
      engine: async (options) => {
        engine ??= await openEngine({
          configPath,
          background: options?.background,
          overrides: debug ? { logging: { level: "debug" } } : undefined,
          logger: debug ? stderrLogger : undefined,
        });
        return engine;
      },
    });
    return code;
  } catch (e) {
    if (debugAsked && e instanceof Error && e.stack) err(e.stack);
    // A failure said in plain words: --debug also shows the store's or the system's own error.
    if (debugAsked && e instanceof PlainError && e.cause instanceof Error) err(`caused by: ${e.cause.stack ?? e.cause.message}`);
    if (e instanceof UsageError) {
      err(`opencode-rag ${command.name}: ${e.message} (see opencode-rag ${command.name} --help)`);
      return EXIT.usage;
    }
    if (e instanceof ConfigError) {
      for (const line of e.message.split("\n")) err(`opencode-rag: config error: ${line}`);
      return EXIT.usage;
    }
    if (e instanceof IndexBusyError) {
      err(`opencode-rag: ${e.message}`);
      return EXIT.busy;
    }
    err(`opencode-rag: ${firstLine(e).split("\n")[0]}${debugAsked ? "" : " (run with --debug for details)"}`);
    return EXIT.failure;
  } finally {
    if (engine) await (engine as Engine).close().catch(() => undefined);
  }
}

// The CLI owns its process (core/own-process.ts).
tuneOwnProcess();

const rawArgv = process.argv.slice(2);
main(rawArgv).then(
  (code) => {
    process.exitCode = code;
    // A search has nothing left to do once its answer is written: its process ends then,
    // without taking down LanceDB's threads and V8's heap piece by piece (~8 ms of a one-off
    // query at 100k files). Other commands end as the event loop empties.
    if (hoistGlobalOptions(rawArgv)[0] === "query") exitOnceWritten(code);
  },
  (e) => {
    process.stderr.write(`opencode-rag: ${firstLine(e)}\n`);
    process.exitCode = EXIT.failure;
  },
);

/** Exits once stdout and stderr have taken what was written to them (a pipe may be asynchronous: macOS). */
function exitOnceWritten(code: number): void {
  let open = 2;
  const written = () => {
    if (--open === 0) process.exit(code);
  };
  process.stdout.write("", written);
  process.stderr.write("", written);
}
