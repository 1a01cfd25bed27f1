// A background pass in a process that serves searches, as the plugin's indexer runs in
// OpenCode's own process: `node edit-child.mjs '<json>'` with { root, stateDir, queries, edit,
// watchPath }. Opens the engine as the plugin does (background), answers the queries to warm
// up, appends a line to each of the `edit` files, runs one pass (over just those paths when
// `watchPath`, as the file watcher does; else the full walk) and prints one JSON line: the
// pass's wall ms, the longest its host's event loop waited meanwhile, and its step timings.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { args, lib, timingsLogger } from "./child-setup.mjs";

const { timings, logger } = timingsLogger();
const engine = await lib.openEngine({
  root: args.root,
  background: true,
  logger,
  overrides: { vectorStore: { path: args.stateDir }, logging: { logFilePath: "", level: "debug" }, autoIndex: { enabled: false } },
});
for (const q of args.queries) await engine.search(q, { topK: 10 });
for (const p of args.edit) appendFileSync(join(args.root, p), "// edited\n");

// A timer due every TICK_MS: how late it fires is how long other work held the thread.
const TICK_MS = 5;
let last = performance.now();
let longestStallMs = 0;
const ticks = setInterval(() => {
  const now = performance.now();
  longestStallMs = Math.max(longestStallMs, now - last - TICK_MS);
  last = now;
}, TICK_MS);
const started = performance.now();
const summary = await engine.index(args.watchPath ? { onlyPaths: args.edit } : {});
const wallMs = performance.now() - started;
clearInterval(ticks);
await engine.close();
process.stdout.write(JSON.stringify({ wallMs, longestStallMs, filesIndexed: summary.filesIndexed, timings: timings[0] ?? null }) + "\n");
process.exit(0);
