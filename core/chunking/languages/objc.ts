// Objective-C: classes by their `@interface` and `@implementation` (a category's too), protocols,
// methods named by their selector (`setImage:forKey:`), and the C declarations between them.
import type { Node } from "web-tree-sitter";
import { c } from "./c.js";
import { ARGUMENTS, withoutMacroNoise } from "./c-macros.js";
import { COMMENTS, type AstLanguage } from "./types.js";

/**
 * Foundation's enum macros: `typedef NS_ENUM(NSInteger, RLCachePolicy) {…} NS_SWIFT_NAME(…);`
 * declares the enum `RLCachePolicy`, which the grammar, reading a call, named after its first
 * constant. It is given `enum RLCachePolicy {…};` instead, padded to the same length.
 */
const ENUM_MACRO = /\btypedef[ \t]+(?:NS|CF)_(?:ENUM|OPTIONS|CLOSED_ENUM|ERROR_ENUM)\([ \t]*[\w \t]+?[ \t]*,[ \t]*(\w+)[ \t]*\)/g;
/** A Swift name or availability macro between an enum's `}` and its `;`. */
const ENUM_TRAILER = new RegExp(`(\\}[ \\t]*)((?:NS_SWIFT_NAME|API_AVAILABLE|API_UNAVAILABLE|NS_AVAILABLE|NS_ENUM_AVAILABLE)${ARGUMENTS})(?=[ \\t]*;)`, "g");

/**
 * C's macro reading (c-macros.ts: Apple's audit macros on lines of their own, such as
 * `NS_ASSUME_NONNULL_BEGIN`, before which an `@interface` parsed as errors; `FOUNDATION_EXPORT`),
 * after Foundation's enums are given as enums.
 */
function forParsing(content: string): string {
  const enums = content
    .replace(ENUM_MACRO, (macro: string, name: string) => `enum ${name}`.padEnd(macro.length))
    .replace(ENUM_TRAILER, (_m, brace: string, trailer: string) => brace + " ".repeat(trailer.length));
  return withoutMacroNoise(enums);
}

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
    // Declared in an @interface or @protocol too: a header's doc comment sits on each.
    method: ["method_definition", "method_declaration"],
    property: ["property_declaration"],
  },
  // A method's comment sits before the `implementation_definition` that holds it.
  wrappers: ["implementation_definition"],
  outlineByUnits: true,
  forParsing,
  leading: COMMENTS,
  refine(node, kind) {
    if (node.type === "method_definition" || node.type === "method_declaration") return { symbol: selectorOf(node), params: "" };
    if (node.type === "property_declaration") return { symbol: propertyName(node) };
    return c.refine?.(node, kind) ?? null;
  },
};

/**
 * `sharedCache`, or `setImage:forKey:` for a method taking arguments: each part of the selector
 * is the name before a parameter (a macro after the last one, `NS_DESIGNATED_INITIALIZER`, is not).
 */
function selectorOf(node: Node): string {
  const children = node.namedChildren.filter((c): c is Node => c !== null);
  const parts: string[] = [];
  children.forEach((child, i) => {
    if (child.type === "identifier" && children[i + 1]?.type === "method_parameter") parts.push(`${child.text}:`);
  });
  return parts.length > 0 ? parts.join("") : (children.find((c) => c.type === "identifier")?.text ?? "");
}

/** `baseURL` in `@property (nonatomic) NSURL *baseURL;`, `handler` in a block property. */
function propertyName(node: Node): string {
  const declarator = node.namedChildren.find((c) => c?.type === "struct_declaration")?.namedChildren.find((c) => c?.type === "struct_declarator");
  const first = (n: Node): Node | null => {
    if (n.type === "identifier" || n.type === "field_identifier") return n;
    for (const child of n.namedChildren) {
      if (!child || child.type === "parameter_list") continue;
      const found = first(child);
      if (found) return found;
    }
    return null;
  };
  return declarator ? (first(declarator)?.text ?? "") : "";
}
