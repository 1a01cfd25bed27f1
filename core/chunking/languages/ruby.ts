import { COMMENTS, type AstLanguage } from "./types.js";

export const ruby: AstLanguage = {
  language: "ruby",
  grammar: "tree-sitter-ruby",
  extensions: [".rb", ".rake", ".gemspec", ".ru"],
  units: {
    function: ["method"],
    method: ["singleton_method"],
    class: ["class", "singleton_class"],
    module: ["module"],
  },
  leading: COMMENTS,
};
