#!/usr/bin/env node
// Bundles test/eval/calibrate.ts (TypeScript) and runs it; see that file.
import { build } from "esbuild";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const out = join(root, "test", ".cache", "calibrate.mjs");
mkdirSync(dirname(out), { recursive: true });
await build({
  entryPoints: [join(root, "test", "eval", "calibrate.ts")],
  outfile: out,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  external: [...Object.keys(pkg.dependencies ?? {}), "sharp", "onnxruntime-node", "@lancedb/lancedb"],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
await import(pathToFileURL(out).href);
