import { COMMENTS, type AstLanguage } from "./types.js";

export const python: AstLanguage = {
  language: "python",
  grammar: "tree-sitter-python",
  extensions: [".py", ".pyi", ".pyw"],
  units: { function: ["function_definition"], class: ["class_definition"] },
  wrappers: ["decorated_definition"],
  leading: COMMENTS,
};
