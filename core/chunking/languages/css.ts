import { singleLine } from "../syntax.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const css: AstLanguage = {
  language: "css",
  grammar: "tree-sitter-css",
  extensions: [".css"],
  units: { rule: ["rule_set", "media_statement", "keyframes_statement", "supports_statement", "at_rule"] },
  leading: COMMENTS,
  refine(node) {
    if (node.type === "rule_set") {
      const selectors = node.namedChildren.find((c) => c?.type === "selectors");
      return { symbol: singleLine(selectors?.text ?? "") };
    }
    // At-rules: their prelude, e.g. `@media (max-width: 600px)`.
    return { symbol: singleLine(node.text.split("{")[0]) };
  },
};
