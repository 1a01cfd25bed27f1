// The plugin's memory in its host. OpenCode runs the plugin, and with it the background
// indexer, in its own process: whatever a pass or the watcher holds, OpenCode holds. A child
// on Bun (OpenCode's runtime, the version OpenCode ships: node_modules/.bin/bun; Node where it
// is missing) starts the plugin on a workspace nobody indexed yet, as OpenCode does at start,
// and reports once the index is committed and the watcher watches (plugin-host-child.mjs):
// how long that took, the host's peak RSS and what it keeps after a full collection; then the
// same once the watcher has followed a branch switch (a few percent of the files take new content).
// Trees: a copy of the bench corpus and a generated tree (100,000 files; `--files=N`).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateTree } from "../generate-tree.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = join(here, "..", "..", "..");
const child = join(here, "..", "plugin-host-child.mjs");

function runtime() {
  const bun = join(repoRoot, "node_modules", ".bin", "bun");
  return existsSync(bun) ? bun : process.execPath;
}

function filesArg() {
  const a = process.argv.find((x) => x.startsWith("--files="));
  return a ? Number(a.slice("--files=".length)) : 100_000;
}

/** The plugin started in a fresh host on `root` (which it indexes: a copy), then a branch switch of `switchFiles` files. */
function hostOn(root, switchFiles) {
  const out = execFileSync(runtime(), [child, JSON.stringify({ root, switchFiles })], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, LANCEDB_LOG: "error" } });
  return JSON.parse(out.trim().split("\n").pop());
}

export default {
  name: "plugin-host",
  async run({ corpusRoot, log }) {
    const rows = [];
    const info = {};
    // A branch switch's files: of the bench tree 600 (~7%, ~5 MB), of the generated one 3% (~2.4 MB at 100k).
    const trees = [
      ["bench tree", (dir) => cpSync(corpusRoot, dir, { recursive: true, filter: (p) => !p.includes("/.opencode") }), 600],
      [`${filesArg() / 1000}k files`, (dir) => generateTree(dir, filesArg()), Math.round(filesArg() * 0.03)],
    ];
    for (const [label, layOut, switchFiles] of trees) {
      const dir = mkdtempSync(join(tmpdir(), "rag-bench-host-"));
      try {
        layOut(dir);
        log(`  ${label}: the plugin indexes it in a fresh host…`);
        const r = hostOn(dir, switchFiles);
        info.runtime = r.runtime;
        rows.push(
          { metric: `${label}: plugin start to index committed and watching: s`, value: r.readyMs / 1000, floor: null, target: "" },
          { metric: `${label}: the host's peak RSS MB`, value: r.peakMb, floor: null, target: "" },
          { metric: `${label}: what the host keeps after it (RSS after a full collection) MB`, value: r.keptMb, floor: null, target: "" },
          { metric: `${label}: a branch switch of ${r.switch.files} files (${(r.switch.bytes / 2 ** 20).toFixed(1)} MB) indexed by the watcher: s`, value: r.switch.ms / 1000, floor: null, target: "" },
          { metric: `${label}: — changed files the index still lacks once the watcher idles (changes it missed)`, value: r.switch.missed, floor: null, target: "" },
          { metric: `${label}: — the host's peak RSS MB`, value: r.switch.peakMb, floor: null, target: "" },
          { metric: `${label}: — what the host keeps after it MB`, value: r.switch.keptMb, floor: null, target: "" },
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return { info, rows };
  },
};
