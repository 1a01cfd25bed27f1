// The command table. A new command is one file under commands/ exporting a `Command`, plus
// one line here; `opencode-rag --help` lists them in this order.
import type { Command } from "./command.js";
import { indexCommand } from "./commands/index.js";
import { queryCommand } from "./commands/query.js";
import { statusCommand } from "./commands/status.js";
import { clearCommand } from "./commands/clear.js";

export const COMMANDS: Command[] = [indexCommand, queryCommand, statusCommand, clearCommand];
