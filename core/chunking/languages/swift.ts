import { keywordOf } from "../syntax.js";
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
  },
  leading: COMMENTS,
  refine(node, kind) {
    if (node.type !== "class_declaration") return null;
    const keyword = keywordOf(node, swiftTypeKeywords);
    return { kind: keyword === "actor" ? "class" : keyword ?? kind };
  },
};
