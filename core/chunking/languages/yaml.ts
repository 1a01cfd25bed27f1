import { singleLine } from "../syntax.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const yaml: AstLanguage = {
  language: "yaml",
  grammar: "tree-sitter-yaml",
  extensions: [".yaml", ".yml"],
  units: { key: ["(stream (document (block_node (block_mapping (block_mapping_pair) @key))))"] },
  leading: COMMENTS,
  refine(node) {
    return { symbol: singleLine(node.childForFieldName("key")?.text ?? "") };
  },
};
