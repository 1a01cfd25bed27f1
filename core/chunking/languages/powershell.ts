// PowerShell (`.ps1`, modules `.psm1`): functions and filters, classes with their properties and
// methods (a constructor by its class's name), and enums. Comments directly above belong to what
// they describe, comment-based help (`<# .SYNOPSIS … #>`) included.
import type { Node } from "web-tree-sitter";
import { singleLine } from "../syntax.js";
import { previousAcrossList } from "./first-statement.js";
import { PESTER_CALLEE, pesterTestCall, testRefinement } from "./test-calls.js";
import type { AstLanguage, Refinement } from "./types.js";

export const powershell: AstLanguage = {
  language: "powershell",
  grammar: "tree-sitter-powershell",
  extensions: [".ps1", ".psm1"],
  units: {
    function: ["function_statement"],
    class: ["class_statement"],
    method: ["class_method_definition"],
    property: ["class_property_definition"],
    enum: ["enum_statement"],
    // Pester: `Describe "Get-Thing" {…}`, `Context`, `It 'returns x' {…}` (test-calls.ts), the
    // block last (unanchored, the query missed a block after `-TestCases @(…)`).
    test: [`(pipeline (pipeline_chain (command (command_name) @_f (#match? @_f "${PESTER_CALLEE}") (command_elements (array_literal_expression) (array_literal_expression (unary_expression (script_block_expression))) .)))) @test`],
  },
  leading: ["comment"],
  // The comment above a script's first statement belongs to it.
  previous: previousAcrossList("statement_list", ["program"]),
  outlineByUnits: true,
  refine(node, kind): Refinement | null {
    if (kind === "test") {
      return testRefinement(pesterTestCall(node));
    }
    const children = node.namedChildren.filter((c): c is Node => c !== null);
    if (node.type === "class_property_definition") return { symbol: children.find((c) => c.type === "variable")?.text.replace(/^\$/, "") ?? "" };
    if (node.type !== "function_statement" && node.type !== "class_method_definition") return { symbol: children.find((c) => c.type === "simple_name")?.text ?? "" };
    const name = children.find((c) => c.type === "function_name" || c.type === "simple_name")?.text ?? "";
    return { symbol: name, params: parametersOf(children) };
  },
};

/** `(…)` after the name, or the body's `param(…)` block, as one line. */
function parametersOf(children: Node[]): string {
  const declared = children.find((c) => c.type === "function_parameter_declaration" || c.type === "class_method_parameter_list");
  if (declared) return singleLine(declared.type === "class_method_parameter_list" ? `(${declared.text})` : declared.text);
  const list = children.find((c) => c.type === "script_block")?.namedChildren.find((c) => c?.type === "param_block")?.namedChildren.find((c) => c?.type === "parameter_list");
  return `(${singleLine(list?.text ?? "")})`;
}
