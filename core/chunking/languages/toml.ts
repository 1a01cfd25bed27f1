import { singleLine } from "../syntax.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const toml: AstLanguage = {
  language: "toml",
  grammar: "tree-sitter-toml",
  extensions: [".toml"],
  units: { table: ["table", "table_array_element"], key: ["(document (pair) @key)"] },
  leading: COMMENTS,
  refine(node) {
    const key = node.namedChildren.find((c) => !!c && /key$/.test(c.type));
    return { symbol: singleLine(key?.text ?? "") };
  },
};
