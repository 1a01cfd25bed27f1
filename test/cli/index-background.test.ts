// `opencode-rag index --background` (how a watcher runs a big pass apart) is a
// background pass: its process runs at the lowest priority, where a plain `index` keeps the
// normal one. Nice values are read back from /proc, so this runs on Linux only.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BACKGROUND_NICE } from "../../core/indexing/cpu-share.js";
import { LAUNCHER_ENV } from "../../core/own-process.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";
import { KEYWORD_ONLY, trackWorkspaces, tsFunction } from "../indexing/helpers.js";

const tracked = trackWorkspaces();

/** Runs `opencode-rag index ARGS` in `root`; resolves with its exit code and every nice value its main thread was seen at. */
function indexSeeingNice(root: string, args: string[]): Promise<{ code: number | null; nices: Set<number> }> {
  // As a watcher starts it (pass-apart.ts): named as another process's pass, so it runs the
  // pass itself instead of relaunching into a child of its own.
  const env = { ...process.env, LANCEDB_LOG: "error", [LAUNCHER_ENV]: String(process.pid) };
  const child = spawn(process.execPath, [join(repoRoot, "dist", "cli.js"), "index", ...args], { cwd: root, stdio: "ignore", env });
  const nices = new Set<number>();
  const sample = setInterval(() => {
    try {
      const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
      nices.add(Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
    } catch {
      // not started yet, or gone
    }
  }, 5);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      clearInterval(sample);
      resolve({ code, nices });
    });
  });
}

describe.runIf(existsSync("/proc/self/stat"))("index --background", () => {
  it("runs its pass at the lowest priority; a plain index at the normal one", async () => {
    ensureBuilt();
    const files = {
      "opencode-rag.json": JSON.stringify(KEYWORD_ONLY),
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/m${i}.ts`, tsFunction(`settleLedger${i}`, "settles a ledger")])),
    };
    const background = tracked.workspace(files);
    const seen = await indexSeeingNice(background, ["--background"]);
    expect(seen.code).toBe(0);
    expect(seen.nices.has(BACKGROUND_NICE)).toBe(true);
    expect(existsSync(join(background, ".opencode", "rag_db", "manifest.json"))).toBe(true);

    const plain = tracked.workspace(files);
    const normal = await indexSeeingNice(plain, []);
    expect(normal.code).toBe(0);
    expect(normal.nices.has(BACKGROUND_NICE)).toBe(false);
  }, 60_000);
});
