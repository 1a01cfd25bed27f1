// The plugin in its host, as OpenCode starts it: `bun plugin-host-child.mjs '{"root": …,
// "switchFiles": N}'` loads dist/plugin.js, calls its server function for the workspace (which
// starts the background indexer), waits until the workspace's index is committed and its watcher
// watches, lets the catch-up pass finish, then switches branches: N source files each take the
// next one's content (new text for every chunk of each), and waits for the watcher to index
// them. Prints one JSON line: how long each phase took, the process's peak RSS (sampled every
// 50 ms) and its RSS after a full collection (what the host keeps), after each.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const { root, switchFiles = 0 } = JSON.parse(process.argv[2]);
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
const settled = async () => {
  globalThis.Bun?.gc(true);
  globalThis.gc?.();
  await sleep(1000);
  return rssMb();
};
const result = { runtime: process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`, readyMs, peakMb, keptMb: await settled() };

if (switchFiles > 0) {
  const watcherStatus = () => {
    try {
      return JSON.parse(readFileSync(join(stateDir, "watcher-status.json"), "utf8"));
    } catch {
      return {};
    }
  };
  const sources = readdirSync(root, { recursive: true })
    .map(String)
    .filter((p) => /\.(ts|tsx|js|jsx|py|go|rs|java|rb)$/.test(p) && !p.includes(".opencode") && !p.includes("node_modules"))
    .sort();
  const step = Math.max(1, Math.floor(sources.length / switchFiles));
  const chosen = sources.filter((_, i) => i % step === 0).slice(0, switchFiles);
  const texts = chosen.map((p) => readFileSync(join(root, p)));
  peakMb = rssMb();
  const switchStarted = performance.now();
  const since = new Date().toISOString();
  chosen.forEach((p, i) => writeFileSync(join(root, p), texts[(i + 1) % texts.length]));
  // Done once the watcher has indexed every switched file, in however many passes, and idles;
  // or once it has idled for 20 s short of that (files it skipped, or changes it missed). The
  // time is until its last pass ended.
  let indexed = 0;
  let lastAt = watcherStatus().lastPass?.at ?? "";
  let lastSeen = performance.now();
  for (;;) {
    await sleep(250);
    const status = watcherStatus();
    if (status.lastPass?.at && status.lastPass.at !== lastAt && status.lastPass.at > since) {
      lastAt = status.lastPass.at;
      indexed += status.lastPass.filesIndexed;
      lastSeen = performance.now();
    }
    if (status.state !== "watching") lastSeen = performance.now();
    if (status.state === "watching" && (indexed >= chosen.length || performance.now() - lastSeen > 20_000)) break;
  }
  // Files changed on disk that the index does not hold as they are now: changes the watcher missed.
  const status = JSON.parse(execFileSync("node", [join(repoRoot, "dist", "cli.js"), "status", "--json"], { cwd: root, encoding: "utf8" }));
  result.switch = { files: chosen.length, missed: status.pendingFiles, bytes: texts.reduce((n, t) => n + t.length, 0), ms: lastSeen - switchStarted, peakMb, keptMb: await settled() };
}
clearInterval(sampler);
process.stdout.write(JSON.stringify(result) + "\n");
process.exit(0);
