import { keywordOf } from "../syntax.js";
import { SUITE_CALLEE, TEST_CALLEE, testRefinement, trailingLambdaTestCall } from "./test-calls.js";
import { COMMENTS, type AstLanguage } from "./types.js";

const swiftTypeKeywords = ["class", "struct", "enum", "extension", "actor"] as const;

export const swift: AstLanguage = {
  language: "swift",
  grammar: "tree-sitter-swift",
  extensions: [".swift"],
  units: {
    class: ["class_declaration"],
    protocol: ["protocol_declaration"],
    function: ["function_declaration", "protocol_function_declaration"],
    constructor: ["init_declaration"],
    property: ["property_declaration"],
    type: ["typealias_declaration"],
    // Quick: `describe("parse") {…}`, `it("returns nothing") {…}` (test-calls.ts).
    test: [
      `(call_expression (simple_identifier) @_f (#match? @_f "${SUITE_CALLEE}|${TEST_CALLEE}") (call_suffix (value_arguments . (value_argument (line_string_literal)) .) (lambda_literal))) @test`,
    ],
  },
  leading: COMMENTS,
  refine(node, kind) {
    if (kind === "test") return testRefinement(trailingLambdaTestCall(node));
    if (node.type !== "class_declaration") return null;
    const keyword = keywordOf(node, swiftTypeKeywords);
    return { kind: keyword === "actor" ? "class" : keyword ?? kind };
  },
};
