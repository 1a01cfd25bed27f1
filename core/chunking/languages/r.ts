// R (`.R`, `.r`): functions assigned to a name (`scale_to <- function(x) …`, `=` and `<<-`
// too), R6 and reference classes assigned to a name, S4's `setClass`, `setGeneric` and
// `setMethod` at the top level (named by their first argument), and the functions of a named
// list (an R6 class's methods). Roxygen comments (`#'`) directly above belong to them. The
// grammar is vendored (grammars/r/).
import type { Node } from "web-tree-sitter";
import { singleLine } from "../syntax.js";
import type { AstLanguage, Refinement } from "./types.js";

const ASSIGNED_FUNCTION = "(binary_operator lhs: (identifier) rhs: (function_definition)) @function";
const ASSIGNED_CLASS = '(binary_operator lhs: (identifier) rhs: (call function: (_) @_f (#match? @_f "(^|::)(R6Class|setRefClass)$"))) @class';
const s4 = (kind: string, names: string[]) => `(program (call function: (identifier) @_f (#any-of? @_f ${names.map((n) => JSON.stringify(n)).join(" ")})) @${kind})`;

export const r: AstLanguage = {
  language: "r",
  grammar: "tree-sitter-r",
  extensions: [".r"],
  units: {
    function: [ASSIGNED_FUNCTION, s4("function", ["setGeneric"])],
    class: [ASSIGNED_CLASS, s4("class", ["setClass", "setRefClass"])],
    method: [s4("method", ["setMethod"]), '(call function: (identifier) @_l (#eq? @_l "list") arguments: (arguments (argument name: (identifier) value: (function_definition)) @method))'],
  },
  leading: ["comment"],
  outlineByUnits: true,
  refine(node): Refinement | null {
    if (node.type === "binary_operator") {
      const rhs = node.childForFieldName("rhs");
      return { symbol: node.childForFieldName("lhs")?.text ?? "", params: parametersOf(rhs) };
    }
    if (node.type === "argument") return { symbol: node.childForFieldName("name")?.text ?? "", params: parametersOf(node.childForFieldName("value")) };
    // setClass("Person", …), setMethod("greet", "Person", …): the first argument names it.
    const first = node.childForFieldName("arguments")?.namedChildren.find((a): a is Node => a?.type === "argument");
    const value = first?.childForFieldName("value");
    return { symbol: value?.type === "string" ? (value.namedChildren[0]?.text ?? "") : singleLine(value?.text ?? ""), params: "" };
  },
};

function parametersOf(fn: Node | null): string {
  return fn?.type === "function_definition" ? singleLine(fn.childForFieldName("parameters")?.text ?? "()") : "";
}
