// Bundles one TypeScript entry of this repository with the same Node settings as the product's
// bundles (esbuild.config.mjs) into test/.cache, and imports it: for scripts that run sources.
import { build } from "esbuild";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { nodeBase } from "../../esbuild.config.mjs";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function bundleAndImport(entry, outName) {
  const out = join(repoRoot, "test", ".cache", outName);
  mkdirSync(dirname(out), { recursive: true });
  await build({ ...nodeBase, sourcemap: false, entryPoints: [join(repoRoot, entry)], outfile: out });
  return import(pathToFileURL(out).href);
}
