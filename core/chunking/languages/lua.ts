import type { Node } from "web-tree-sitter";
import { singleLine } from "../syntax.js";
import { SUITE_CALLEE, TEST_CALLEE, luaTestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage, type Refinement } from "./types.js";

export const lua: AstLanguage = {
  language: "lua",
  grammar: "tree-sitter-lua",
  extensions: [".lua"],
  units: {
    function: [
      "function_definition_statement",
      "local_function_definition_statement",
      // `M.compute = function (x) … end`, `local handler = function (evt) … end`
      "(variable_assignment (expression_list value: (function_definition))) @function",
      "(local_variable_declaration (expression_list value: (function_definition))) @function",
    ],
    // busted and plenary.nvim: `describe("util", function() … end)`, `it(…)` (test-calls.ts).
    test: [`(call function: (variable (identifier) @_f) (#match? @_f "${SUITE_CALLEE}|${TEST_CALLEE}") arguments: (argument_list (expression_list . (string) . (function_definition)))) @test`],
  },
  leading: COMMENTS,
  refine: (node, kind) => (kind === "test" ? testRefinement(luaTestCall(node)) : refineLua(node)),
};

/**
 * Lua functions are named by what they are stored in: `function M.greet` and
 * `M.greet = function` are `greet` (shown as `M.greet`), `function M:add` is a method.
 */
function refineLua(node: Node): Refinement | null {
  const statement = node.type === "function_definition_statement" || node.type === "local_function_definition_statement";
  const fn = statement ? node : node.namedChildren.find((c) => c?.type === "expression_list")?.childForFieldName("value");
  // The grammar's parameter_list leaves the parentheses out.
  const params = `(${singleLine(fn?.childForFieldName("parameters")?.text ?? "")})`;
  if (node.type === "local_function_definition_statement") return { params };
  const target = statement ? node.childForFieldName("name") : (node.namedChildren.find((c) => c?.type === "variable_list")?.namedChildren[0] ?? null);
  if (!target) return { symbol: "", params };
  const method = target.childForFieldName("method");
  const last = method ?? target.childForFieldName("field") ?? target.childForFieldName("name") ?? target;
  const qualified = singleLine(target.text);
  return { kind: method ? "method" : "function", symbol: singleLine(last.text), qualifiedName: qualified === last.text ? "" : qualified, params };
}
