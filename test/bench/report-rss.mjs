// Preloaded with `node --import` into a process the bench does not otherwise control (the CLI):
// writes the process's peak RSS, in KB, to stderr as it exits.
import { writeSync } from "node:fs";
import { peakRssMb } from "./peak-rss.mjs";

process.on("exit", () => writeSync(2, `\nmaxrss ${Math.round(peakRssMb() * 1024)}\n`));
