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
  },
  leading: [...COMMENTS, "attribute_list"],
};
