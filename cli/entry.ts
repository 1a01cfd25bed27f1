// The `opencode-rag` executable. A single `query` that a running engine of the workspace can
// answer (the plugin, `index --watch`, `mcp`) is answered here, before the rest of the CLI is
// loaded: loading it (the engine, LanceDB and Arrow, every command) is most of the time of a
// cold query. Anything else, or no engine answering, goes to the full CLI beside this file,
// in a child process for the commands that run index passes (relaunch.ts).
import nodeModule from "node:module";
import { hoistGlobalOptions } from "./command.js";
import { followLauncher, runRelaunched, wantsRelaunch } from "./relaunch.js";

// Node 22.1+ keeps V8's compiled code of the modules loaded from here on in its compile cache
// (in the system's temporary folder, checked against each file), so a later process skips
// compiling the ~1.7 MB of JavaScript a query loads. Older Node and Bun do without.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Built from cli/main.ts; a variable, so the bundler leaves the import to run time.
const FULL_CLI = "./cli-main.js";

const out = (t: string) => void process.stdout.write(t + "\n");
const err = (t: string) => void process.stderr.write(t + "\n");
const argv = hoistGlobalOptions(process.argv.slice(2));
// A command that may run big index passes runs in a child with a pass's allocator settings.
const relaunched = wantsRelaunch(argv) ? await runRelaunched() : null;
if (relaunched !== null) process.exitCode = relaunched;
else {
  followLauncher();
  const answered = argv[0] === "query" ? await import("./commands/query.js").then((q) => q.queryFromRunningEngine(argv, out, err)).catch(() => null) : null;
  if (answered === null) await import(FULL_CLI);
  else process.exitCode = answered;
}
