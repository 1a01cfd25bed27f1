// Whether a workspace file's first lines say a tool generated it (generated-mark.ts): the
// ranking then treats it as generated code, as it does `.pb.go` or a `generated/` folder by
// their paths. Much generated code has no such path: a client generator's typed clients, a
// mock generator's mocks, `stringer`'s `*_string.go`. Read on the query path, lazily: only files
// that are candidates of a search and that their paths call source are asked about, each read
// once per lookup (the engine makes one per committed index, as it does published examples).
// Node only.
import { join } from "node:path";
import { generatedMark, GENERATED_MARK_HEAD_BYTES } from "./generated-mark.js";
import { readRegularFileHeadSync } from "./safe-read.js";

/**
 * A lookup for workspace-relative paths under `root`; a file that cannot be read has no mark,
 * nor has a path that would leave the workspace (an index's paths never do).
 */
export function markedGeneratedUnder(root: string): (filePath: string) => boolean {
  const known = new Map<string, boolean>();
  return (filePath) => {
    let marked = known.get(filePath);
    if (marked === undefined) {
      marked = !LEAVES_ROOT.test(filePath) && hasMark(join(root, filePath));
      known.set(filePath, marked);
    }
    return marked;
  };
}

const LEAVES_ROOT = /^\/|^[A-Za-z]:|(^|[/\\])\.\.([/\\]|$)/;

function hasMark(absPath: string): boolean {
  try {
    return generatedMark(readRegularFileHeadSync(absPath, GENERATED_MARK_HEAD_BYTES).toString("utf8")) !== null;
  } catch {
    return false; // gone since the pass, or not a file any more
  }
}
