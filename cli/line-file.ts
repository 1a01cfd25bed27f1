// A file of one item a line that a command reads (`query --batch FILE`, `index --paths-from
// FILE`): "-" is standard input, so a pipe can feed it.
import { readFileSync } from "node:fs";
import { UsageError } from "./command.js";

/** The lines of `source` ("-": stdin) that hold more than spaces, without their line ends; `what` names the file in the error. */
export function readLineFile(source: string, what: string): string[] {
  let text: string;
  try {
    text = readFileSync(source === "-" ? 0 : source, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read the ${what} ${source} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the path`);
  }
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}
