// What a bench child process starts with (pass-child.mjs, serve-child.mjs, edit-child.mjs): its
// JSON argument, the built library with the V8 settings the CLI's pass and serving commands run
// with (core/own-process.ts), and a logger that keeps a pass's step timings.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
export const args = JSON.parse(process.argv[2]);
process.env.LANCEDB_LOG ??= "error";
export const lib = await import(join(repoRoot, "dist", "library.js"));
lib.tuneOwnProcess();

/** A logger that keeps every pass's step timings (logged at debug) in `timings`; quiet otherwise. */
export function timingsLogger() {
  const timings = [];
  return { timings, logger: { debug: (m, d) => m.startsWith("index pass timings") && timings.push(d), info() {}, warn() {}, error() {} } };
}
