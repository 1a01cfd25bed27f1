import { COMMENTS, type AstLanguage } from "./types.js";

export const scala: AstLanguage = {
  language: "scala",
  grammar: "tree-sitter-scala",
  extensions: [".scala", ".sc"],
  units: {
    class: ["class_definition", "object_definition"],
    trait: ["trait_definition"],
    function: ["function_definition"],
  },
  leading: [...COMMENTS, "annotation"],
};
