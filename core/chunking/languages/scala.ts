import { SUITE_CALLEE, TEST_CALLEE, scalaTestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const scala: AstLanguage = {
  language: "scala",
  grammar: "tree-sitter-scala",
  extensions: [".scala", ".sc"],
  units: {
    class: ["class_definition", "object_definition"],
    trait: ["trait_definition"],
    function: ["function_definition"],
    // munit and ScalaTest: `test("decodes an int") {…}`, `describe(…) {…}` (test-calls.ts).
    test: [`(call_expression function: (identifier) @_f (#match? @_f "${SUITE_CALLEE}|${TEST_CALLEE}") arguments: (arguments . (string) .) body: (block)) @test`],
  },
  leading: [...COMMENTS, "annotation"],
  refine: (node, kind) => (kind === "test" ? testRefinement(scalaTestCall(node)) : null),
};
