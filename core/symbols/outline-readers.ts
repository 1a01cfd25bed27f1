// Languages whose trees the node-type table of skeleton.ts cannot read: each brings its own
// walker, and skeleton.ts asks here before walking. Portable: no Node.
import type { OutlineItem } from "./outline-item.js";
import { haskellOutline, isHaskellTree } from "./skeleton-haskell.js";
import type { SyntaxNodeLike } from "./syntax-node.js";

export interface OutlineReader {
  /** Whether `root` is a tree of this reader's grammar. */
  reads(root: SyntaxNodeLike): boolean;
  outline(root: SyntaxNodeLike): OutlineItem[];
}

const READERS: readonly OutlineReader[] = [
  // One Haskell function is several nodes (signature, equations).
  { reads: isHaskellTree, outline: haskellOutline },
];

/** The reader for `root`'s grammar, or null where the generic walker applies. */
export function outlineReaderFor(root: SyntaxNodeLike): OutlineReader | null {
  return READERS.find((reader) => reader.reads(root)) ?? null;
}
