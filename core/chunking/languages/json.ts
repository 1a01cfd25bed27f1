import { singleLine } from "../syntax.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const json: AstLanguage = {
  language: "json",
  grammar: "tree-sitter-json",
  extensions: [".json", ".jsonc", ".json5", ".webmanifest"],
  units: { key: ["(document (object (pair) @key))"] },
  leading: COMMENTS, // JSONC (tsconfig.json, settings files)
  refine(node) {
    const key = node.childForFieldName("key");
    return { symbol: key ? singleLine(key.text.replace(/^"|"$/g, "")) : "" };
  },
};
