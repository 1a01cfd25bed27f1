// The folders a JavaScript package publishes as importable code, read from its package.json
// (`exports`, `main`, `module`, `browser`, `bin`, `types`). Why: by convention `examples/` holds
// demos that the ranking demotes, but some packages serve part of their library from there
// (three.js maps `three/addons/*` to `examples/jsm/*`, hundreds of files): an example folder a
// package exports is its library (published-paths.ts decides which). Portable: no Node built-ins.

/** Fields whose values are paths into the package (besides `exports`). */
const PATH_FIELDS = ["main", "module", "browser", "bin", "types", "typings"] as const;

/**
 * Folders, relative to the package's own folder and ending in `/`, that hold files the package
 * publishes: the folder of each target (`./examples/jsm/*` → `examples/jsm/`,
 * `./build/three.module.js` → `build/`). A target at the package's top publishes no folder, and
 * a target outside it (`../x`) is ignored. Not an object, or no such fields: none.
 */
export function publishedFolders(manifest: unknown): string[] {
  if (!isObject(manifest)) return [];
  const targets: string[] = [];
  collectTargets(manifest.exports, targets);
  for (const field of PATH_FIELDS) collectTargets(manifest[field], targets);
  const folders = new Set<string>();
  for (const target of targets) {
    const folder = folderOf(target);
    if (folder) folders.add(folder);
  }
  return [...folders].sort();
}

/** Every string under an `exports` value: subpath maps, condition objects, arrays, nesting. */
function collectTargets(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectTargets(v, out);
  else if (isObject(value)) for (const v of Object.values(value)) collectTargets(v, out);
}

/** The folder part of a target, before any `*` pattern; null at the package's top or outside it. */
function folderOf(target: string): string | null {
  const path = target.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
  if (path.startsWith("../") || path.startsWith("/") || /^[a-z][a-z0-9+.-]*:/i.test(path)) return null;
  const beforePattern = path.split("*")[0];
  const slash = beforePattern.lastIndexOf("/");
  return slash > 0 ? beforePattern.slice(0, slash + 1) : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
