// The command table. A new command is one file under commands/ exporting a `Command`, plus
// one line here; `opencode-rag --help` lists them in this order.
import type { Command } from "./command.js";
import { indexCommand } from "./commands/index.js";
import { queryCommand } from "./commands/query.js";
import { usagesCommand } from "./commands/usages.js";
import { statusCommand } from "./commands/status.js";
import { clearCommand } from "./commands/clear.js";
import { initCommand } from "./commands/init.js";
import { evalCommand, EVAL_USAGE } from "./commands/eval.js";
import { quirkCommand } from "./commands/quirk.js";
import { serveWebCommand } from "./commands/serve-web.js";
import { mcpCommand } from "./commands/mcp.js";

/** `eval` parses its own arguments (query files, presets). */
const evalEntry: Command = {
  name: "eval",
  summary: "measure retrieval quality over a queries file, or the token use of logged sessions",
  help: EVAL_USAGE,
  options: {},
  run: async () => 2,
  runRaw: (argv) => evalCommand(argv),
};

export const COMMANDS: Command[] = [indexCommand, queryCommand, usagesCommand, statusCommand, clearCommand, initCommand, evalEntry, quirkCommand, serveWebCommand, mcpCommand];
