// Whether a workspace file lies in an example folder that a package.json above it publishes
// as importable code (package-exports.ts): the ranking then treats it as source. Only a folder
// the package exports that is itself an example folder counts (three.js's `examples/jsm/*`):
// exporting `src/v3/index.ts` does not publish `src/v3/benchmarks/`. Read lazily: only paths
// the conventions call examples are asked about, so most searches read no package.json at all.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isExamplePath } from "../path-class.js";
import { publishedFolders } from "./package-exports.js";
import { parentOf } from "./walk.js";

/** A package.json larger than this is not a package manifest worth parsing on the query path. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * A lookup for workspace-relative paths under `root`. Each folder's package.json is looked for
 * and read at most once per lookup: the engine makes a new one for each committed index, so an
 * edited package.json counts from the next index pass on.
 */
export function publishedExamplesUnder(root: string): (filePath: string) => boolean {
  // Per folder ("" is the root): the published example folders of every package.json from it up to the root.
  const inherited = new Map<string, readonly string[]>();
  const publishedAbove = (folder: string): readonly string[] => {
    let known = inherited.get(folder);
    if (known) return known;
    const own = readPublished(root, folder);
    const above = folder === "" ? [] : publishedAbove(parentOf(folder));
    known = own.length === 0 ? above : [...own, ...above];
    inherited.set(folder, known);
    return known;
  };
  return (filePath) => publishedAbove(parentOf(filePath)).some((prefix) => filePath.startsWith(prefix));
}

/** The example folders `folder/package.json` publishes, as workspace paths ending in `/`; none without one. */
function readPublished(root: string, folder: string): string[] {
  const file = join(root, folder, "package.json");
  try {
    if (statSync(file).size > MAX_MANIFEST_BYTES) return [];
    const folders = publishedFolders(JSON.parse(readFileSync(file, "utf8"))).filter(isExamplePath);
    return folder === "" ? folders : folders.map((f) => `${folder}/${f}`);
  } catch {
    return []; // none, unreadable or not JSON: nothing published
  }
}

