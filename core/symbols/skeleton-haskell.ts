// File skeleton of a Haskell module. Its tree does not fit the node-type table of skeleton.ts:
// one function is a type signature plus one node per equation, imports hold `module` nodes,
// and data constructors are `constructor` nodes. Items follow the chunker's reading: a signature
// and the equations below it are one function; data, newtype and type declarations (and
// families, their instances, kind signatures) are types; classes hold their methods and
// associated types; instances are `impl`s named by their head. Portable: no Node.
import type { OutlineItem } from "./outline-item.js";
import { endLine, namedChildren, startLine, type SyntaxNodeLike } from "./syntax-node.js";

const TYPE_DECLARATIONS = new Set([
  "data_type",
  "newtype",
  "type_synomym", // sic: the grammar's spelling
  "type_family",
  "data_family",
  "type_instance",
  "data_instance",
  "kind_signature",
]);

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? line.slice(0, 77) + "..." : line;
}

/** `foo`; `(<+>)` and `a <+> b = …` → `<+>`; ``x `plus` y = …`` → `plus`. */
function bindingName(node: SyntaxNodeLike | null): string {
  if (!node) return "";
  const bare = (text: string) => oneLine(text).replace(/^\((.*)\)$/, "$1").replace(/^`(.*)`$/, "$1").trim();
  const name = node.childForFieldName("name");
  if (name) return bare(name.text);
  const infix = node.type === "infix" ? node : namedChildren(node).find((c) => c.type === "infix");
  if (infix) return bare(infix.childForFieldName("operator")?.text ?? "");
  const parens = node.childForFieldName("parens") ?? (node.type === "function_head_parens" ? (namedChildren(node)[0] ?? null) : null);
  return parens ? bindingName(parens) : "";
}

/** Kind and name of one declaration node, or null for what the outline leaves out (fixity, splices, pragmas). */
function describe(node: SyntaxNodeLike, inClass: boolean): { kind: string; name: string } | null {
  const callable = inClass ? "method" : "function";
  switch (node.type) {
    case "signature":
    case "function":
    case "bind": {
      const name = bindingName(node);
      return name ? { kind: callable, name } : null;
    }
    case "foreign_import": {
      const name = bindingName(node.childForFieldName("signature"));
      return name ? { kind: "function", name } : null;
    }
    case "class":
      return { kind: "class", name: oneLine(node.childForFieldName("name")?.text ?? "") };
    case "instance":
    case "deriving_instance": {
      const head = [node.childForFieldName("name")?.text, node.childForFieldName("patterns")?.text].filter(Boolean).join(" ");
      return { kind: "impl", name: oneLine(head) };
    }
    default:
      return TYPE_DECLARATIONS.has(node.type) ? { kind: "type", name: oneLine(node.childForFieldName("name")?.text ?? "") } : null;
  }
}

/** The declarations of one list (the module's, a class's or an instance's), signatures and equations of one name joined. */
function declarationItems(list: SyntaxNodeLike | null, inClass: boolean): OutlineItem[] {
  if (!list) return [];
  const items: OutlineItem[] = [];
  // The node kind of the last item, so that only a function's own equations join it.
  let last: { kind: string; name: string } | null = null;
  for (const child of namedChildren(list)) {
    if (child.type === "comment" || child.type === "haddock" || child.type === "pragma") continue;
    const what = describe(child, inClass);
    if (!what) {
      last = null;
      continue;
    }
    const prev = items[items.length - 1];
    const joins = (what.kind === "function" || what.kind === "method" || what.kind === "type") && last !== null && last.kind === what.kind && last.name === what.name && what.name !== "";
    if (joins && prev) {
      prev.endLine = endLine(child);
      continue;
    }
    const body = child.type === "class" || child.type === "instance" ? child.childForFieldName("declarations") : null;
    items.push({ kind: what.kind, name: what.name, startLine: startLine(child), endLine: endLine(child), children: declarationItems(body, true) });
    last = what;
  }
  return items;
}

/**
 * A tree of tree-sitter-haskell: its root is `haskell`, or `ERROR` around a module header or
 * imports when the file does not parse (syntax the grammar lacks, unbalanced CPP).
 */
export function isHaskellTree(root: SyntaxNodeLike): boolean {
  if (root.type === "haskell") return true;
  return root.type === "ERROR" && namedChildren(root).some((c) => (c.type === "header" && c.childForFieldName("module") !== null) || c.type === "imports");
}

/** The outline of a Haskell module; in a file that does not parse, the declarations still recognisable at its top level. */
export function haskellOutline(root: SyntaxNodeLike): OutlineItem[] {
  return declarationItems(root.type === "haskell" ? root.childForFieldName("declarations") : root, false);
}
