import { COMMENTS, type AstLanguage } from "./types.js";

export const rust: AstLanguage = {
  language: "rust",
  grammar: "tree-sitter-rust",
  extensions: [".rs"],
  units: {
    function: ["function_item", "function_signature_item"],
    struct: ["struct_item", "union_item"],
    enum: ["enum_item"],
    trait: ["trait_item"],
    impl: ["impl_item"],
    module: ["(mod_item body: (_)) @module"],
    type: ["type_item"],
    macro: ["macro_definition"],
  },
  leading: [...COMMENTS, "attribute_item"],
  refine(node) {
    if (node.type !== "impl_item") return null;
    const type = node.childForFieldName("type")?.text ?? "";
    const trait = node.childForFieldName("trait")?.text;
    return { symbol: trait ? `${trait} for ${type}` : type };
  },
};
