// The Node grammar source: reads grammar .wasm files from dist/grammars (where the build
// copies them once) and, when that folder is absent (running from TypeScript sources, or a
// build that has not run yet), from the repository's vendored grammars/ folder and the packages
// in node_modules that ship them.
// This is the only file of core/chunking that touches Node built-ins.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Packages that ship grammars, and where a file lives inside each (null: not there). The same
 * choice as the build's copyGrammars(): @kerebron/wasm only for the grammars tree-sitter-wasms
 * lacks or ships broken (its YAML fails to parse under web-tree-sitter 0.25).
 */
const KEREBRON_FOLDERS: Record<string, string> = {
  "tree-sitter-markdown.wasm": "tree-sitter-markdown",
  "tree-sitter-markdown_inline.wasm": "tree-sitter-markdown",
  "tree-sitter-xml.wasm": "tree-sitter-xml",
  "tree-sitter-dtd.wasm": "tree-sitter-xml",
  "tree-sitter-yaml.wasm": "tree-sitter-yaml",
};

/**
 * Grammars kept in the repository (`grammars/<folder>/<file>`, each with its licence and
 * provenance) because no installed package ships them usably. The build copies them flat into
 * dist/grammars like the others.
 */
const VENDORED_FOLDERS: Record<string, string> = {
  "tree-sitter-haskell.wasm": "haskell",
  "tree-sitter-hcl.wasm": "hcl",
  "tree-sitter-terraform.wasm": "hcl",
  "tree-sitter-powershell.wasm": "powershell",
  "tree-sitter-make.wasm": "make",
  "tree-sitter-r.wasm": "r",
};

const PACKAGE_LAYOUTS: Array<{ pkg: string; pathOf: (file: string) => string | null }> = [
  { pkg: "web-tree-sitter", pathOf: (file) => (file === "tree-sitter.wasm" ? file : null) },
  { pkg: "@kerebron/wasm", pathOf: (file) => (KEREBRON_FOLDERS[file] ? join("assets", KEREBRON_FOLDERS[file], file) : null) },
  { pkg: "tree-sitter-wasms", pathOf: (file) => join("out", file) },
];

/** Folders to search: copied grammar folders first, then node_modules folders. */
export interface GrammarSearchPath {
  grammarDirs: string[];
  nodeModulesDirs: string[];
}

let defaultPath: GrammarSearchPath | null = null;

/**
 * From this module's folder upwards: `grammars/` (beside a bundle; in the repository, the
 * vendored grammars), `dist/grammars/`, `node_modules/`.
 */
export function defaultGrammarSearchPath(): GrammarSearchPath {
  if (defaultPath) return defaultPath;
  const grammarDirs: string[] = [];
  const nodeModulesDirs: string[] = [];
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    grammarDirs.push(join(dir, "grammars"), join(dir, "dist", "grammars"));
    nodeModulesDirs.push(join(dir, "node_modules"));
    if (dirname(dir) === dir) break;
  }
  defaultPath = { grammarDirs: grammarDirs.filter(existsSync), nodeModulesDirs: nodeModulesDirs.filter(existsSync) };
  return defaultPath;
}

/** Absolute path of a grammar file, or null when no known location has it. */
export function findGrammarFile(file: string, search: GrammarSearchPath = defaultGrammarSearchPath()): string | null {
  for (const dir of search.grammarDirs) {
    if (existsSync(join(dir, file))) return join(dir, file);
    const vendored = VENDORED_FOLDERS[file] && join(dir, VENDORED_FOLDERS[file], file);
    if (vendored && existsSync(vendored)) return vendored;
  }
  for (const dir of search.nodeModulesDirs) {
    for (const layout of PACKAGE_LAYOUTS) {
      const inner = layout.pathOf(file);
      const candidate = inner && join(dir, layout.pkg, inner);
      if (candidate && existsSync(candidate)) return candidate;
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
