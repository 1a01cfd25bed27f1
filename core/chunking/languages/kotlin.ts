import { headerHasWord, nameOf as nodeName } from "../syntax.js";
import { COMPANION_OBJECT_LABEL } from "../pack.js";
import { SUITE_CALLEE, TEST_CALLEE, testRefinement, trailingLambdaTestCall } from "./test-calls.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const kotlin: AstLanguage = {
  language: "kotlin",
  grammar: "tree-sitter-kotlin",
  extensions: [".kt", ".kts"],
  units: {
    class: ["class_declaration"],
    object: ["object_declaration", "companion_object"],
    function: ["function_declaration"],
    constructor: ["secondary_constructor"],
    property: ["property_declaration"],
    type: ["type_alias"],
    // Kotest: `describe("parse") {…}`, `test("adds") {…}` (test-calls.ts); the grammar nests the
    // titled call inside the call its trailing lambda completes.
    test: [
      `(call_expression (call_expression (simple_identifier) @_f (#match? @_f "${SUITE_CALLEE}|${TEST_CALLEE}") (call_suffix (value_arguments . (value_argument (string_literal)) .))) (call_suffix (annotated_lambda))) @test`,
    ],
  },
  leading: COMMENTS,
  refine(node, kind) {
    if (kind === "test") return testRefinement(trailingLambdaTestCall(node));
    if (node.type === "function_declaration") {
      // Extension functions read as `Note.preview`: the receiver type comes before the name.
      const name = node.namedChildren.find((c) => c?.type === "simple_identifier")?.text ?? "";
      const receiver = node.namedChildren.find((c) => c?.type === "user_type" && c.startIndex < (node.namedChildren.find((n) => n?.type === "simple_identifier")?.startIndex ?? 0));
      return { symbol: receiver ? `${receiver.text}.${name}` : name };
    }
    // An unnamed companion object holds its class's own members: named as written, not as a bare "object".
    if (node.type === "companion_object") return nodeName(node) ? null : { label: COMPANION_OBJECT_LABEL };
    if (node.type !== "class_declaration") return null;
    if (node.namedChildren.some((c) => c?.type === "enum_class_body")) return { kind: "enum" };
    if (headerHasWord(node, "interface")) return { kind: "interface" };
    return { kind };
  },
};
