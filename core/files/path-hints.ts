// What a workspace's files tell the ranking that their paths do not (core/path-class.ts): the
// example folders its packages publish, and the files their generators marked. Both read
// lazily, each file at most once per lookup; the engine makes one per committed index. Node only.
import type { PathHints } from "../path-class.js";
import { markedGeneratedUnder } from "./generated-files.js";
import { publishedExamplesUnder } from "./published-paths.js";

export function pathHintsUnder(root: string): PathHints {
  return { isPublishedExample: publishedExamplesUnder(root), isMarkedGenerated: markedGeneratedUnder(root) };
}
