import { singleLine } from "../syntax.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const zig: AstLanguage = {
  language: "zig",
  grammar: "tree-sitter-zig",
  extensions: [".zig"],
  // Zig types are values: `const Point = struct {…}` declares the type Point.
  units: {
    function: ["function_declaration"],
    struct: ["struct_declaration", "union_declaration", "opaque_declaration"].map((t) => `(variable_declaration (${t})) @struct`),
    enum: ["enum_declaration", "error_set_declaration"].map((t) => `(variable_declaration (${t})) @enum`),
    test: ["test_declaration"],
  },
  leading: COMMENTS,
  refine(node) {
    if (node.type !== "test_declaration") return null;
    // `test "adds points" {…}` or a decltest `test helper {…}`.
    const name = node.namedChildren.find((c) => c?.type === "string" || c?.type === "identifier");
    const text = name?.type === "string" ? (name.namedChildren.find((c) => c?.type === "string_content")?.text ?? "") : (name?.text ?? "");
    // A title keeps its quotes in the context (`test "adds points"`), as other languages' tests do.
    return { symbol: singleLine(text), qualifiedName: name?.type === "string" ? singleLine(name.text) : "" };
  },
};
