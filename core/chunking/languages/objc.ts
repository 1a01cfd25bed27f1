// Objective-C: classes by their `@interface` and `@implementation` (a category's too), protocols,
// methods named by their selector (`setImage:forKey:`), and the C declarations between them.
import type { Node } from "web-tree-sitter";
import { c } from "./c.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const objc: AstLanguage = {
  language: "objc",
  grammar: "tree-sitter-objc",
  // `.mm` (Objective-C++) first: it is only ever Objective-C. `.m` is also MATLAB's, and
  // languageForContent() takes it for Objective-C only when it reads so.
  extensions: [".mm", ".m"],
  units: {
    ...c.units,
    class: ["class_interface", "class_implementation"],
    protocol: ["protocol_declaration"],
    method: ["method_definition"],
  },
  // A method's comment sits before the `implementation_definition` that holds it.
  wrappers: ["implementation_definition"],
  outlineByUnits: true,
  leading: COMMENTS,
  refine(node, kind) {
    if (node.type === "method_definition") return { symbol: selectorOf(node), params: "" };
    return c.refine?.(node, kind) ?? null;
  },
};

/** `sharedCache`, or `setImage:forKey:` for a method taking arguments: the selector's parts, each before its parameter. */
function selectorOf(node: Node): string {
  const parts: string[] = [];
  let takesArguments = false;
  for (const child of node.namedChildren) {
    if (child?.type === "identifier") parts.push(child.text);
    else if (child?.type === "method_parameter") takesArguments = true;
  }
  return takesArguments ? parts.map((p) => `${p}:`).join("") : (parts[0] ?? "");
}
