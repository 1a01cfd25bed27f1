// Bundles bench.ts (TypeScript) into test/.cache and runs it with the given arguments.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const out = join(root, "test", ".cache", "retrieval-bench.mjs");
await build({
  entryPoints: [join(root, "test/retrieval/bench.ts")],
  outfile: out,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Installed packages load from node_modules (jsonc-parser's UMD build cannot be bundled as ESM).
  external: ["@lancedb/lancedb", "apache-arrow", "jsonc-parser"],
  logLevel: "warning",
});
const run = spawnSync(process.execPath, ["--expose-gc", out, ...process.argv.slice(2)], { stdio: "inherit", cwd: root, env: { ...process.env, LANCEDB_LOG: "error" } });
process.exit(run.status ?? 1);
