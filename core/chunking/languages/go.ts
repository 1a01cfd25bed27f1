import { nameOf } from "../syntax.js";
import { goSubtestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const go: AstLanguage = {
  language: "go",
  grammar: "tree-sitter-go",
  extensions: [".go"],
  units: {
    function: ["function_declaration"],
    method: ["method_declaration"],
    type: ["type_declaration"],
    // A subtest with a literal name: `t.Run("empty input", func(t *testing.T) {…})` (test-calls.ts).
    test: ['(expression_statement (call_expression function: (selector_expression field: (field_identifier) @_m (#eq? @_m "Run")) arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] . (func_literal)))) @test'],
  },
  leading: COMMENTS,
  refine(node, kind) {
    if (kind === "test") return testRefinement(goSubtestCall(node));
    if (node.type === "method_declaration") {
      // Go methods read as `(*Store).Get`: the receiver type is part of the name.
      const receiver = node.childForFieldName("receiver")?.namedChildren[0]?.childForFieldName("type")?.text;
      const name = node.childForFieldName("name")?.text ?? "";
      return { symbol: receiver ? `${receiver.replace(/^\*/, "")}.${name}` : name };
    }
    if (node.type !== "type_declaration") return null;
    const spec = node.namedChildren.find((c) => c?.type === "type_spec" || c?.type === "type_alias");
    const type = spec?.childForFieldName("type")?.type;
    return {
      kind: type === "struct_type" ? "struct" : type === "interface_type" ? "interface" : kind,
      symbol: spec ? nameOf(spec) : "",
    };
  },
};
