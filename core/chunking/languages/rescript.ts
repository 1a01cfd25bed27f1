// ReScript (`.res`, and interfaces in `.resi`): modules and module types, `let` bindings (a
// function when bound to one, else a variable), types, exceptions and `external` JavaScript
// bindings. Decorators (`@react.component`) and doc comments directly above belong to them.
import type { Node } from "web-tree-sitter";
import { singleLine } from "../syntax.js";
import { COMMENTS, type AstLanguage, type Refinement } from "./types.js";

export const rescript: AstLanguage = {
  language: "rescript",
  grammar: "tree-sitter-rescript",
  extensions: [".res", ".resi"],
  units: {
    module: ["module_declaration"],
    // A file's and a module's own bindings; a function body's `let`s stay inside it.
    function: ["(source_file (let_declaration) @function)", "(module_binding definition: (block (let_declaration) @function))", "external_declaration"],
    type: ["type_declaration", "exception_declaration"],
  },
  leading: [...COMMENTS, "decorator"],
  outlineByUnits: true,
  refine(node, kind): Refinement | null {
    const binding = node.namedChildren.find((c): c is Node => c?.type === "let_binding" || c?.type === "module_binding" || c?.type === "type_binding") ?? null;
    if (node.type === "module_declaration" || node.type === "type_declaration") return { kind, symbol: binding?.childForFieldName("name")?.text ?? "" };
    if (node.type === "exception_declaration") return { kind, symbol: node.namedChildren.find((c) => c?.type === "variant_identifier")?.text ?? "" };
    if (node.type === "external_declaration") return { kind, symbol: node.namedChildren.find((c) => c?.type === "value_identifier")?.text ?? "", params: "" };
    // `let make = (~initial) => …` is a function; `let total = add(1, 2)` a variable.
    const pattern = binding?.childForFieldName("pattern");
    const body = binding?.childForFieldName("body");
    const symbol = pattern?.type === "value_identifier" ? pattern.text : singleLine(pattern?.text ?? "");
    if (body?.type !== "function") return { kind: "variable", symbol, params: "" };
    // One parameter without parentheses (`n => …`) is shown as a list of one.
    const one = body.childForFieldName("parameter");
    const params = body.childForFieldName("parameters")?.text ?? (one ? `(${one.text})` : "()");
    return { kind: "function", symbol, params: singleLine(params) };
  },
};
