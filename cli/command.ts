// What every CLI command is: a name, its options, its help, and a run function. Commands live
// one per file under commands/ and are listed in commands/index.ts.
import type { ParseArgsConfig } from "node:util";
import type { Engine } from "../core/engine-types.js";

export type OptionSpecs = NonNullable<ParseArgsConfig["options"]>;

export interface CommandContext {
  /** Parsed options of this command (global ones included). */
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
  /** --config PATH, if given. */
  configPath?: string;
  debug: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether stderr is a terminal (progress bars). */
  interactive: boolean;
  /** Opens the engine for the current directory with --config applied; closed by main. */
  engine(options?: { background?: boolean }): Promise<Engine>;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage lines and option help shown by `<command> --help`. */
  help: string;
  options: OptionSpecs;
  allowPositionals?: boolean;
  /** Returns the process exit code. */
  run(ctx: CommandContext): Promise<number>;
  /**
   * For commands that parse their own arguments: gets everything after the command name and
   * replaces option parsing and `run`.
   */
  runRaw?(argv: string[]): Promise<number>;
}

/** A usage mistake: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Options every command takes. */
export const GLOBAL_OPTIONS: OptionSpecs = {
  config: { type: "string" },
  debug: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

export const GLOBAL_HELP = `  --config PATH   use this config file instead of opencode-rag.json / .opencode/rag.json
  --debug         verbose logging to stderr and stack traces on errors
  -h, --help      show this help`;

/**
 * Moves global options given before the command (`--config X index`) after it, where the
 * command's parser takes them.
 */
export function hoistGlobalOptions(argv: string[]): string[] {
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const a = argv[i];
    if (a === "--config") {
      if (i + 1 >= argv.length) break;
      leading.push(a, argv[i + 1]);
      i += 2;
    } else if (a.startsWith("--config=") || a === "--debug") {
      leading.push(a);
      i++;
    } else {
      break;
    }
  }
  // Nothing after them: leave them first, so "--help"/no-command handling reports it.
  if (leading.length === 0 || i >= argv.length) return argv;
  return [argv[i], ...leading, ...argv.slice(i + 1)];
}
