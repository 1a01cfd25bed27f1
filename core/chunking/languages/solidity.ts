// Solidity: contracts and libraries (kind `class`), interfaces, and what they declare —
// functions, modifiers and constructors, structs, enums, events and errors.
import { COMMENTS, type AstLanguage } from "./types.js";

export const solidity: AstLanguage = {
  language: "solidity",
  grammar: "tree-sitter-solidity",
  extensions: [".sol"],
  units: {
    class: ["contract_declaration", "library_declaration"],
    interface: ["interface_declaration"],
    function: ["function_definition", "modifier_definition", "fallback_receive_definition"],
    constructor: ["constructor_definition"],
    struct: ["struct_declaration"],
    enum: ["enum_declaration"],
    type: ["event_definition", "error_declaration", "user_defined_type_definition"],
  },
  outlineByUnits: true,
  leading: COMMENTS,
};
