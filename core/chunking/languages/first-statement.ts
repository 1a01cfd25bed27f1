// Grammars that wrap a file's statements in one list node (HCL's `body`, PowerShell's
// `statement_list`) keep the comments above the first statement outside that list.
import type { Node } from "web-tree-sitter";

/**
 * A table's `previous`: a unit's previous sibling, or for the first statement of the file's
 * `list` (a child of `root`), the node before the list, where its comments sit.
 */
export function previousAcrossFileList(list: string, root: string): (node: Node) => Node | null {
  return (node) => {
    const sibling = node.previousNamedSibling;
    if (sibling || node.parent?.type !== list || node.parent.parent?.type !== root) return sibling;
    return node.parent.previousNamedSibling;
  };
}
