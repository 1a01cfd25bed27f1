// TypeScript, TSX and JavaScript (+JSX): one family of grammars sharing their unit patterns.
import type { Node } from "web-tree-sitter";
import { singleLine } from "../syntax.js";
import { JS_TEST_BODIES, SUITE_CALLEE, TEST_CALLEE, jsTestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage, type Refinement } from "./types.js";

// One pattern per value type: a field followed by an alternation (`value: [(a) (b)]`) also
// matched non-function values under web-tree-sitter 0.25.
const jsFunctionValues = ["arrow_function", "function_expression", "generator_function"];
const jsBoundFunctions = ["lexical_declaration", "variable_declaration"].flatMap((decl) =>
  jsFunctionValues.map((value) => `(${decl} (variable_declarator value: (${value}))) @function`),
);
// Components wrapped in a call (`const Row = memo((props) => …)`, `forwardRef(function …)`).
const jsWrappedFunctions = ["lexical_declaration", "variable_declaration"].flatMap((decl) =>
  ["arrow_function", "function_expression"].map(
    (value) => `(${decl} (variable_declarator value: (call_expression arguments: (arguments . (${value}))))) @function`,
  ),
);
// `Store.prototype.get = function () {…}`, `exports.create = () => …`: named by the target.
const jsAssignedFunctions = jsFunctionValues.map(
  (value) => `(expression_statement (assignment_expression left: (member_expression) right: (${value}))) @function`,
);

// `describe(title, () => …)`, `it.each(rows)(title, …)`: suites and tests (test-calls.ts).
const jsTestCallee = `(#match? @_f "${SUITE_CALLEE}|${TEST_CALLEE}")`;
const jsTestBody = `arguments: (arguments . (_) [${JS_TEST_BODIES.map((t) => `(${t})`).join(" ")}])`;
const jsTestCalls = [
  `(expression_statement (call_expression function: [(identifier) (member_expression)] @_f ${jsTestCallee} ${jsTestBody})) @test`,
  `(expression_statement (call_expression function: (call_expression function: (member_expression) @_f ${jsTestCallee}) ${jsTestBody})) @test`,
];

function refineJs(node: Node, kind: string): Refinement | null {
  if (kind === "test") {
    return testRefinement(jsTestCall(node));
  }
  if (node.type !== "expression_statement") return null;
  const target = node.namedChildren[0]?.childForFieldName("left");
  const qualifiedName = singleLine(target?.text ?? "");
  return {
    kind: qualifiedName.includes(".prototype.") ? "method" : "function",
    symbol: target?.childForFieldName("property")?.text ?? "",
    qualifiedName,
  };
}

const javascriptUnits: Record<string, string[]> = {
  function: [
    "function_declaration",
    "generator_function_declaration",
    ...jsBoundFunctions,
    ...jsWrappedFunctions,
    ...jsAssignedFunctions,
  ],
  method: ["method_definition"],
  class: ["class_declaration"],
  test: jsTestCalls,
};

const typescriptUnits: Record<string, string[]> = {
  ...javascriptUnits,
  function: [...javascriptUnits.function, "function_signature"],
  method: ["method_definition", "abstract_method_signature"],
  class: ["class_declaration", "abstract_class_declaration"],
  interface: ["interface_declaration"],
  type: ["type_alias_declaration"],
  enum: ["enum_declaration"],
  namespace: ["internal_module", "module"],
};

const jsWrappers = ["export_statement", "ambient_declaration"];
const jsLeading = [...COMMENTS, "decorator"];

export const typescript: AstLanguage = {
  language: "typescript",
  grammar: "tree-sitter-typescript",
  extensions: [".ts", ".mts", ".cts"],
  units: typescriptUnits,
  wrappers: jsWrappers,
  leading: jsLeading,
  refine: refineJs,
};

export const tsx: AstLanguage = {
  language: "typescript",
  grammar: "tree-sitter-tsx",
  extensions: [".tsx"],
  units: typescriptUnits,
  wrappers: jsWrappers,
  leading: jsLeading,
  refine: refineJs,
};

export const javascript: AstLanguage = {
  language: "javascript",
  grammar: "tree-sitter-javascript",
  extensions: [".js", ".mjs", ".cjs", ".jsx"],
  units: javascriptUnits,
  wrappers: ["export_statement"],
  leading: jsLeading,
  refine: refineJs,
};
