import type { Node } from "web-tree-sitter";
import { nameOf, singleLine } from "../syntax.js";
import type { AstLanguage, Refinement } from "./types.js";

export const haskell: AstLanguage = {
  language: "haskell",
  grammar: "tree-sitter-haskell",
  extensions: [".hs", ".hs-boot"],
  // Only declarations of the module, a class or an instance: `where` and `let` bindings stay
  // inside the function they belong to.
  units: {
    function: ["declarations", "class_declarations", "instance_declarations"].flatMap((list) => [
      `(${list} (function) @function)`,
      `(${list} (bind name: (_)) @function)`,
      `(${list} (signature name: (_)) @function)`,
    ]).concat("(declarations (foreign_import) @function)"),
    type: [
      // "type_synomym": sic, the grammar's spelling.
      ...["data_type", "newtype", "type_synomym", "type_family", "data_family", "type_instance", "data_instance", "kind_signature"].map(
        (t) => `(declarations (${t}) @type)`,
      ),
      // Associated types and their instances.
      ...["type_family", "data_family", "type_instance"].map((t) => `(class_declarations (${t}) @type)`),
      ...["type_instance", "data_instance"].map((t) => `(instance_declarations (${t}) @type)`),
    ],
    class: ["(declarations (class) @class)"],
    impl: ["(declarations (instance) @impl)", "(declarations (deriving_instance) @impl)"],
  },
  leading: ["comment", "haddock", "pragma"],
  // `foo :: Int -> Int` then `foo 0 = 1` and `foo n = …`: one function; `type T :: Type` then `data T`: one type.
  clauses: ["function", "type"],
  previous: previousHaskell,
  refine: refineHaskell,
};

/**
 * Haskell: functions are named by their name, their operator (`a <+> b = …`, `(<+>) :: …`) or
 * the backticked name of an infix definition (`x \`plus\` y = …`); a signature shows its type
 * in place of a parameter list; an instance is named by its head (`Show (Tree a)`).
 */
function refineHaskell(node: Node, kind: string): Refinement | null {
  switch (node.type) {
    case "signature":
      return { symbol: haskellName(node), params: ` :: ${singleLine(node.childForFieldName("type")?.text ?? "", 100)}` };
    case "function":
    case "bind":
      return { symbol: haskellName(node), params: "" };
    case "instance":
    case "deriving_instance": {
      const head = [node.childForFieldName("name")?.text, node.childForFieldName("patterns")?.text].filter(Boolean).join(" ");
      return { symbol: singleLine(head) };
    }
    case "foreign_import": {
      const signature = node.childForFieldName("signature");
      return { symbol: haskellName(signature), params: signature ? ` :: ${singleLine(signature.childForFieldName("type")?.text ?? "", 100)}` : "" };
    }
    default:
      return { kind, symbol: nameOf(node) };
  }
}

/** `foo`, `(<+>)` → `<+>`, `` `plus` `` → `plus`; an infix or parenthesised head names its operator. */
function haskellName(node: Node | null): string {
  if (!node) return "";
  const bare = (text: string) => singleLine(text).replace(/^\((.*)\)$/, "$1").replace(/^`(.*)`$/, "$1").trim();
  const name = node.childForFieldName("name");
  if (name) return bare(name.text);
  const infix = node.type === "infix" ? node : node.namedChildren.find((c) => c?.type === "infix");
  if (infix) return bare(infix.childForFieldName("operator")?.text ?? "");
  const parens = node.childForFieldName("parens") ?? (node.type === "function_head_parens" ? node.namedChildren[0] : null);
  return parens ? haskellName(parens) : "";
}

/**
 * The grammar keeps the comments above the first declaration of a module, class or instance
 * outside its declaration list (at the end of the imports, or before the list): look there.
 */
function previousHaskell(node: Node): Node | null {
  const sibling = node.previousNamedSibling;
  if (sibling) return sibling;
  const list = node.parent;
  if (!list || !/(^|_)declarations$/.test(list.type) || list.namedChildren[0]?.id !== node.id) return null;
  const before = list.previousNamedSibling;
  if (before?.type === "imports" || before?.type === "header") return before.lastNamedChild;
  return before;
}
