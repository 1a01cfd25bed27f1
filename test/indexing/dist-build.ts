// Tests that run the built bundles (child processes, the CLI) build them once if they are
// missing, so `npx vitest run test/indexing` works without `npm test`'s build step.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const repoRoot = join(import.meta.dirname, "..", "..");

export function ensureBuilt(): void {
  if (["library.js", "cli.js", "lancedb-js.cjs", "config.schema.json"].every((f) => existsSync(join(repoRoot, "dist", f)))) return;
  execFileSync(process.execPath, [join(repoRoot, "esbuild.config.mjs")], { cwd: repoRoot, stdio: "inherit" });
}
