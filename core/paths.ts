// Where the package's own assets (grammars, models) live, wherever the package is installed:
// found by walking up from this module to the folder holding our package.json.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cachedRoot: string | null = null;

/** The installed package's root folder (the one with package.json named "opencode-rag"). */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, "utf8")).name === "opencode-rag") return (cachedRoot = dir);
      } catch {
        // unreadable package.json: keep walking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("opencode-rag: cannot find the package root (is the package installed intact?)");
    dir = up;
  }
}

/** The installed package's version, read from its package.json: the one place it is written. */
export function packageVersion(): string {
  const version: unknown = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")).version;
  if (typeof version !== "string") throw new Error("opencode-rag: its package.json names no version (is the package installed intact?)");
  return version;
}

/** Folder with tree-sitter.wasm and every grammar; built by esbuild.config.mjs. */
export function grammarsDir(): string {
  return join(packageRoot(), "dist", "grammars");
}

/** LanceDB's and Arrow's JavaScript as one file (core/store/lance-table.ts); built by esbuild.config.mjs. */
export function lanceJsFile(): string {
  return join(packageRoot(), "dist", "lancedb-js.cjs");
}

/** Folder with the models that ship in the package. */
export function modelsDir(): string {
  return join(packageRoot(), "models");
}
