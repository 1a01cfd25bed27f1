// OCaml (`.ml`): modules and module types, classes and their methods, types and exceptions, and
// `let` definitions, a function when it takes parameters or binds a `fun`/`function`. The
// grammar keeps names one level down (`module_definition > module_binding > module_name`).
import type { Node } from "web-tree-sitter";
import type { AstLanguage, Refinement } from "./types.js";

/** Where each unit's name sits: the binding child that holds it, then the name node's type. */
const NAMES: Record<string, [binding: string | null, name: string]> = {
  module_definition: ["module_binding", "module_name"],
  module_type_definition: [null, "module_type_name"],
  class_definition: ["class_binding", "class_name"],
  type_definition: ["type_binding", "type_constructor"],
  exception_definition: ["constructor_declaration", "constructor_name"],
  value_definition: ["let_binding", "value_name"],
  method_definition: [null, "method_name"],
};

export const ocaml: AstLanguage = {
  language: "ocaml",
  grammar: "tree-sitter-ocaml",
  extensions: [".ml"],
  units: {
    module: ["module_definition", "module_type_definition"],
    class: ["class_definition"],
    type: ["type_definition", "exception_definition"],
    function: ["value_definition"],
    method: ["method_definition"],
  },
  outlineByUnits: true,
  leading: ["comment"],
  refine(node, kind): Refinement | null {
    const where = NAMES[node.type];
    if (!where) return null;
    const holder = where[0] ? childOfType(node, where[0]) : node;
    const symbol = (holder && childOfType(holder, where[1])?.text) ?? "";
    if (node.type !== "value_definition") return { kind, symbol };
    const takes = holder?.namedChildren.some((c) => c?.type === "parameter" || c?.type === "fun_expression" || c?.type === "function_expression");
    return { kind: takes ? "function" : "variable", symbol, params: "" };
  },
};

function childOfType(node: Node, type: string): Node | null {
  return node.namedChildren.find((c): c is Node => c?.type === type) ?? null;
}
