import { COMMENTS, type AstLanguage } from "./types.js";

export const csharp: AstLanguage = {
  language: "csharp",
  grammar: "tree-sitter-c_sharp",
  extensions: [".cs", ".csx"],
  units: {
    class: ["class_declaration"],
    interface: ["interface_declaration"],
    struct: ["struct_declaration"],
    enum: ["enum_declaration"],
    record: ["record_declaration"],
    method: ["method_declaration", "operator_declaration"],
    constructor: ["constructor_declaration"],
    property: ["property_declaration"],
    type: ["delegate_declaration"],
  },
  // A namespace usually wraps the whole file: its types are the units.
  transparent: { namespace: ["namespace_declaration", "file_scoped_namespace_declaration"] },
  leading: COMMENTS,
};
