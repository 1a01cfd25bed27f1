import { COMMENTS, type AstLanguage } from "./types.js";

export const java: AstLanguage = {
  language: "java",
  grammar: "tree-sitter-java",
  extensions: [".java"],
  units: {
    class: ["class_declaration"],
    interface: ["interface_declaration", "annotation_type_declaration"],
    enum: ["enum_declaration"],
    record: ["record_declaration"],
    method: ["method_declaration"],
    constructor: ["constructor_declaration"],
  },
  leading: COMMENTS,
};
