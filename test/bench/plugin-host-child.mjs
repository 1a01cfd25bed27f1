// The plugin in its host, as OpenCode starts it: `bun plugin-host-child.mjs '{"root": …}'` loads
// dist/plugin.js, calls its server function for the workspace (which starts the background
// indexer), waits until the workspace's index is committed and its watcher watches, lets the
// catch-up pass finish, and prints one JSON line: how long that took, the process's peak RSS
// (sampled every 50 ms) and its RSS after a full collection (what the host keeps).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const { root } = JSON.parse(process.argv[2]);
process.env.LANCEDB_LOG ??= "error";
const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let peakMb = rssMb();
const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb())), 50);

const started = performance.now();
const plugin = await import(join(repoRoot, "dist", "plugin.js"));
await plugin.server({ directory: root, worktree: root, client: {}, project: {}, serverUrl: new URL("http://127.0.0.1:9") });
const stateDir = join(root, ".opencode", "rag_db");
for (;;) {
  let state = "";
  try {
    state = JSON.parse(readFileSync(join(stateDir, "watcher-status.json"), "utf8")).state;
  } catch {
    // not written yet
  }
  if (state === "watching" && existsSync(join(stateDir, "manifest.json"))) break;
  await sleep(250);
}
const readyMs = performance.now() - started;
// The watcher's catch-up pass runs right after: let it end.
await sleep(5000);
globalThis.Bun?.gc(true);
globalThis.gc?.();
await sleep(1000);
clearInterval(sampler);
process.stdout.write(JSON.stringify({ runtime: process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`, readyMs, peakMb, keptMb: rssMb() }) + "\n");
process.exit(0);
