#!/usr/bin/env node
// Runs `opencode-rag eval` from source (bundled on the fly with esbuild), for working on the
// ranking stack without rebuilding the whole CLI. Same arguments as `opencode-rag eval`.
import { build } from "esbuild";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const out = join(root, "test", ".cache", "eval-cli.mjs");
mkdirSync(dirname(out), { recursive: true });
await build({
  entryPoints: [join(root, "cli", "commands", "eval.ts")],
  outfile: out,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  external: [...Object.keys(pkg.dependencies ?? {}), "sharp", "onnxruntime-node", "@lancedb/lancedb"],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const { evalCommand } = await import(pathToFileURL(out).href);
process.exitCode = await evalCommand(process.argv.slice(2));
