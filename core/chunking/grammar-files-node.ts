// The Node grammar source: reads grammar .wasm files from dist/grammars (where the build
// copies them once) and, when that folder is absent (running from TypeScript sources, or a
// build that has not run yet), from the packages in node_modules that ship them.
// This is the only file of core/chunking that touches Node built-ins.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Packages that ship grammars, and where a given file lives inside each. */
const PACKAGE_LAYOUTS: Array<{ pkg: string; pathOf: (file: string) => string }> = [
  { pkg: "web-tree-sitter", pathOf: (file) => file },
  { pkg: "tree-sitter-wasms", pathOf: (file) => join("out", file) },
  // @kerebron/wasm keeps each grammar in its own folder: assets/tree-sitter-xml/tree-sitter-xml.wasm
  { pkg: "@kerebron/wasm", pathOf: (file) => join("assets", kerebronFolder(file), file) },
];

function kerebronFolder(file: string): string {
  const stem = file.replace(/\.wasm$/, "");
  if (stem === "tree-sitter-markdown_inline") return "tree-sitter-markdown";
  if (stem === "tree-sitter-dtd") return "tree-sitter-xml";
  return stem;
}

const here = dirname(fileURLToPath(import.meta.url));
let searchDirs: string[] | null = null;

/** dist/grammars beside (or above) this module, then every node_modules on the way up. */
function grammarDirs(): string[] {
  if (searchDirs) return searchDirs;
  const dirs: string[] = [];
  const nodeModules: string[] = [];
  for (let dir = here; ; dir = dirname(dir)) {
    dirs.push(join(dir, "grammars"), join(dir, "dist", "grammars"));
    nodeModules.push(join(dir, "node_modules"));
    if (dirname(dir) === dir) break;
  }
  searchDirs = [...dirs.filter((d) => existsSync(d)), ...nodeModules.filter((d) => existsSync(d))];
  return searchDirs;
}

/** Absolute path of a grammar file, or null when no known location has it. */
export function findGrammarFile(file: string): string | null {
  for (const dir of grammarDirs()) {
    if (dir.endsWith("node_modules")) {
      for (const layout of PACKAGE_LAYOUTS) {
        const candidate = join(dir, layout.pkg, layout.pathOf(file));
        if (existsSync(candidate)) return candidate;
      }
    } else if (existsSync(join(dir, file))) {
      return join(dir, file);
    }
  }
  return null;
}

export async function readGrammarFile(file: string): Promise<Uint8Array> {
  const path = findGrammarFile(file);
  if (!path) {
    throw new Error(`tree-sitter grammar ${file} not found in dist/grammars or node_modules; reinstall the package (npm ci) or run the build`);
  }
  return new Uint8Array(await readFile(path));
}
