// Tests that run the built bundles (child processes, the CLI) build them once if they are
// missing, so `npx vitest run test/indexing` works without `npm test`'s build step.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const repoRoot = join(import.meta.dirname, "..", "..");

export function ensureBuilt(): void {
  if (existsSync(join(repoRoot, "dist", "library.js")) && existsSync(join(repoRoot, "dist", "cli.js"))) return;
  execFileSync(process.execPath, [join(repoRoot, "esbuild.config.mjs")], { cwd: repoRoot, stdio: "inherit" });
}
