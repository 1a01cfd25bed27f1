// Preloaded with `node --import` into a process the bench does not otherwise control (the CLI):
// writes the process's peak RSS, in KB, to stderr as it exits.
import { writeSync } from "node:fs";

process.on("exit", () => writeSync(2, `\nmaxrss ${process.resourceUsage().maxRSS}\n`));
