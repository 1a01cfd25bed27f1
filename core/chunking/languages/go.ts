import { nameOf } from "../syntax.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const go: AstLanguage = {
  language: "go",
  grammar: "tree-sitter-go",
  extensions: [".go"],
  units: { function: ["function_declaration"], method: ["method_declaration"], type: ["type_declaration"] },
  leading: COMMENTS,
  refine(node, kind) {
    if (node.type === "method_declaration") {
      // Go methods read as `(*Store).Get`: the receiver type is part of the name.
      const receiver = node.childForFieldName("receiver")?.namedChildren[0]?.childForFieldName("type")?.text;
      const name = node.childForFieldName("name")?.text ?? "";
      return { symbol: receiver ? `${receiver.replace(/^\*/, "")}.${name}` : name };
    }
    if (node.type !== "type_declaration") return null;
    const spec = node.namedChildren.find((c) => c?.type === "type_spec" || c?.type === "type_alias");
    const type = spec?.childForFieldName("type")?.type;
    return {
      kind: type === "struct_type" ? "struct" : type === "interface_type" ? "interface" : kind,
      symbol: spec ? nameOf(spec) : "",
    };
  },
};
