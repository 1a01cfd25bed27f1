// C and C++: `typedef struct {…} Name;` names the struct in both.
import type { Node } from "web-tree-sitter";
import { nameOf } from "../syntax.js";
import { withoutMacroNoise } from "./c-macros.js";
import { cppTestMacro, testRefinement, titledCppTestBody, TITLED_CPP_TEST_MACROS } from "./test-calls.js";
import { COMMENTS, type AstLanguage, type Refinement } from "./types.js";

export const c: AstLanguage = {
  language: "c",
  grammar: "tree-sitter-c",
  extensions: [".c", ".h"],
  units: {
    function: ["function_definition"],
    struct: ["(struct_specifier body: (_)) @struct", "(union_specifier body: (_)) @struct"],
    enum: ["(enum_specifier body: (_)) @enum"],
    type: ["type_definition"],
    // A function-like macro is as much of a C library's interface as its functions (`listFirst(l)`).
    macro: ["preproc_function_def"],
  },
  forParsing: withoutMacroNoise,
  leading: COMMENTS,
  refine: refineTypedef,
};

export const cpp: AstLanguage = {
  language: "cpp",
  grammar: "tree-sitter-cpp",
  extensions: [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".inl"],
  units: {
    function: ["function_definition"],
    class: ["(class_specifier body: (_)) @class"],
    struct: ["(struct_specifier body: (_)) @struct", "(union_specifier body: (_)) @struct"],
    enum: ["(enum_specifier body: (_)) @enum"],
    namespace: ["namespace_definition"],
    type: ["type_definition", "alias_declaration"],
    macro: ["preproc_function_def"],
    // Catch2's and doctest's `TEST_CASE("title") {…}`: the body, its macro a leading line (a
    // call without its `;` to the grammar, the body's previous sibling).
    test: [`((expression_statement (call_expression function: (identifier) @_f (#match? @_f "${TITLED_CPP_TEST_MACROS}"))) . (compound_statement) @test)`],
  },
  wrappers: ["template_declaration"],
  forParsing: withoutMacroNoise,
  leading: [...COMMENTS, "expression_statement"],
  refine(node, kind) {
    if (kind === "test") return testRefinement(titledCppTestBody(node, node.previousNamedSibling));
    // `Matrix<T>::multiply` defined outside its class is still a method of that class.
    if (node.type === "function_definition") {
      const test = cppTestMacro(node);
      if (test) return testRefinement(test);
      const symbol = nameOf(node);
      return { kind: symbol.includes("::") ? "method" : kind, symbol };
    }
    return refineTypedef(node, kind);
  },
};

/** `typedef struct {…} Buffer;` is a struct named Buffer, not an anonymous struct. */
function refineTypedef(node: Node, kind: string): Refinement | null {
  if (node.type !== "type_definition") return null;
  const type = node.childForFieldName("type")?.type;
  const symbol = nameOf(node);
  if (type === "struct_specifier" || type === "union_specifier") return { kind: "struct", symbol };
  if (type === "enum_specifier") return { kind: "enum", symbol };
  return { kind, symbol };
}
