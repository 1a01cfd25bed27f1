// Grammars that wrap a block's statements in one list node (HCL's file `body`, PowerShell's
// `statement_list`, Ruby's `body_statement` in a module or class) keep the comments above the
// first statement outside that list.
import type { Node } from "web-tree-sitter";

/**
 * A table's `previous`: a unit's previous sibling, or for the first statement of a `list` (a
 * child of one of `owners`), the node before the list, where its comments sit.
 */
export function previousAcrossList(list: string, owners: readonly string[]): (node: Node) => Node | null {
  return (node) => {
    const sibling = node.previousNamedSibling;
    if (sibling || node.parent?.type !== list || !owners.includes(node.parent.parent?.type ?? "")) return sibling;
    return node.parent.previousNamedSibling;
  };
}
