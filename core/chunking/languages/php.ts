import { SUITE_CALLEE, TEST_CALLEE, phpTestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const php: AstLanguage = {
  language: "php",
  grammar: "tree-sitter-php",
  extensions: [".php", ".phtml"],
  units: {
    class: ["class_declaration"],
    interface: ["interface_declaration"],
    trait: ["trait_declaration"],
    enum: ["enum_declaration"],
    namespace: ["(namespace_definition body: (_)) @namespace"],
    function: ["function_definition"],
    method: ["method_declaration"],
    // Pest: `describe('users', function () {…})`, `it(…)`, `test(…)` (test-calls.ts).
    test: [`(function_call_expression function: (name) @_f (#match? @_f "${SUITE_CALLEE}|${TEST_CALLEE}") arguments: (arguments . (argument [(string) (encapsed_string)]) . (argument [(anonymous_function_creation_expression) (arrow_function)]))) @test`],
  },
  // A Pest test is a statement, often chained (`test(…)->throws(…)`): the statement is its chunk.
  wrappers: ["member_call_expression", "expression_statement"],
  leading: [...COMMENTS, "attribute_list"],
  refine: (node, kind) => (kind === "test" ? testRefinement(phpTestCall(node)) : null),
};
