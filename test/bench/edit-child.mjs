// A background pass in a process that serves searches, as the plugin's indexer runs in
// OpenCode's own process: `node edit-child.mjs '<json>'` with { root, stateDir, queries, edit,
// watchPath }. Opens the engine as the plugin does (background), answers the queries to warm
// up, appends a line to each of the `edit` files, runs one pass (over just those paths when
// `watchPath`, as the file watcher does; else the full walk) and prints one JSON line: the
// pass's wall ms, the longest its host's event loop waited meanwhile, and its step timings.
// With `then` (paths), edits those next and runs a second pass the same way, as a watcher's
// later passes run (after one of its own committed): reported as `then`.
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

// A timer due every TICK_MS: how late it fires is how long other work held the thread.
const TICK_MS = 5;

/** Edits `paths` and runs one pass over them; its wall ms, the host's longest wait, its step timings. */
async function editedPass(paths) {
  for (const p of paths) appendFileSync(join(args.root, p), "// edited\n");
  let last = performance.now();
  let longestStallMs = 0;
  const ticks = setInterval(() => {
    const now = performance.now();
    longestStallMs = Math.max(longestStallMs, now - last - TICK_MS);
    last = now;
  }, TICK_MS);
  const started = performance.now();
  const summary = await engine.index(args.watchPath ? { onlyPaths: paths } : {});
  const wallMs = performance.now() - started;
  clearInterval(ticks);
  return { wallMs, longestStallMs, filesIndexed: summary.filesIndexed, timings: timings.at(-1) ?? null };
}

const first = await editedPass(args.edit);
const then = args.then ? await editedPass(args.then) : undefined;
await engine.close();
process.stdout.write(JSON.stringify({ ...first, ...(then ? { then } : {}) }) + "\n");
process.exit(0);
