// A background pass in a process that serves searches, as the plugin's indexer runs in
// OpenCode's own process: `node edit-child.mjs '<json>'` with { root, stateDir, queries, edit,
// watchPath }. Opens the engine as the plugin does (background), answers the queries to warm
// up, appends a line to each of the `edit` files, runs one pass (over just those paths when
// `watchPath`, as the file watcher does; else the full walk) and prints one JSON line: the
// pass's wall ms, the longest its host's event loop waited meanwhile, and its step timings.
// With `then` (paths), edits those next and runs a second pass the same way, as a watcher's
// later passes run (after one of its own committed): reported as `then`. With `thenFolder`
// (paths), edits those last and runs a pass over their folders' entries ("dir/"), which is what
// the folder watch asks for after a save (its events name the folder), twice: the first of a
// process also lays out the manifest's paths by folder; the second is reported as `thenFolder`.
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

/**
 * Edits `paths` and runs one pass: over `onlyPaths` when given, else over the paths themselves
 * (`watchPath`) or the whole tree; its wall ms, the host's longest wait, its step timings.
 */
async function editedPass(paths, onlyPaths = args.watchPath ? paths : undefined) {
  for (const p of paths) appendFileSync(join(args.root, p), "// edited\n");
  let last = performance.now();
  let longestStallMs = 0;
  const ticks = setInterval(() => {
    const now = performance.now();
    longestStallMs = Math.max(longestStallMs, now - last - TICK_MS);
    last = now;
  }, TICK_MS);
  const started = performance.now();
  const summary = await engine.index(onlyPaths ? { onlyPaths } : {});
  const wallMs = performance.now() - started;
  clearInterval(ticks);
  return { wallMs, longestStallMs, filesIndexed: summary.filesIndexed, timings: timings.at(-1) ?? null };
}

const first = await editedPass(args.edit);
const then = args.then ? await editedPass(args.then) : undefined;
const folderEntries = (path) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "/");
const folderPass = () => editedPass(args.thenFolder, [...new Set(args.thenFolder.map(folderEntries))]);
const thenFolder = args.thenFolder ? (await folderPass(), await folderPass()) : undefined;
await engine.close();
process.stdout.write(JSON.stringify({ ...first, ...(then ? { then } : {}), ...(thenFolder ? { thenFolder } : {}) }) + "\n");
process.exit(0);
