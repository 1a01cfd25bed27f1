import { COMMENTS, type AstLanguage } from "./types.js";

export const bash: AstLanguage = {
  language: "bash",
  grammar: "tree-sitter-bash",
  extensions: [".sh", ".bash", ".zsh"],
  units: { function: ["function_definition"] },
  leading: COMMENTS,
};
