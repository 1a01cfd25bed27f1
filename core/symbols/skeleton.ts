// File skeleton (F18): a nested outline of the declarations in one file, with line ranges and
// kinds, from its tree-sitter tree. Node types are mapped to kinds across grammars (the type
// names are distinctive enough that one table serves every language). Portable: no Node.
import { testCallOf } from "../chunking/languages/test-calls.js";
import type { OutlineItem } from "./outline-item.js";
import { outlineReaderFor } from "./outline-readers.js";
import { endLine, namedChildren, startLine, type SyntaxNodeLike } from "./syntax-node.js";

export type { OutlineItem } from "./outline-item.js";

/** Declaration node types and the kind each one shows as. */
export const DECLARATION_KINDS: Readonly<Record<string, string>> = {
  // functions
  function_declaration: "function",
  generator_function_declaration: "function",
  function_definition: "function",
  function_item: "function",
  function_signature_item: "function",
  function_definition_statement: "function", // Lua
  local_function_definition_statement: "function",
  preproc_function_def: "macro", // C and C++: `#define listFirst(l) …`
  // methods and constructors
  method_definition: "method",
  method_declaration: "method",
  method_signature: "method",
  abstract_method_signature: "method",
  method: "method",
  singleton_method: "method",
  constructor_declaration: "constructor",
  init_declaration: "constructor",
  // types
  class_declaration: "class",
  abstract_class_declaration: "class",
  class_definition: "class",
  class_specifier: "class",
  class: "class",
  object_declaration: "object",
  companion_object: "object",
  interface_declaration: "interface",
  type_alias_declaration: "type",
  type_item: "type",
  type_spec: "type",
  enum_declaration: "enum",
  enum_item: "enum",
  enum_specifier: "enum",
  struct_item: "struct",
  struct_specifier: "struct",
  union_specifier: "union",
  struct_declaration: "struct",
  union_item: "struct",
  union_declaration: "struct", // Zig
  opaque_declaration: "struct",
  error_set_declaration: "enum",
  trait_item: "trait",
  trait_definition: "trait", // Scala
  object_definition: "object",
  impl_item: "impl",
  protocol_declaration: "protocol",
  extension_declaration: "extension",
  record_declaration: "record",
  // containers
  mod_item: "module",
  module: "module",
  internal_module: "namespace",
  namespace_definition: "namespace",
  namespace_declaration: "namespace",
  // style sheets
  rule_set: "rule",
  media_statement: "rule",
  keyframes_statement: "rule",
  // markdown: a section is named by its heading
  section: "heading",
};

/** Kinds that, nested in a class-like item, are methods. */
const CLASS_LIKE = new Set(["class", "interface", "struct", "trait", "impl", "protocol", "extension", "record", "enum", "object"]);

const GO_TYPE_KINDS: Readonly<Record<string, string>> = { struct_type: "struct", interface_type: "interface" };

/** C/C++ type specifiers: an item only where they declare a body, not where they name a type. */
const SPECIFIERS = new Set(["struct_specifier", "union_specifier", "enum_specifier", "class_specifier"]);

/**
 * Swift and Kotlin share class_declaration between class, struct, enum, extension, actor and
 * interface: the keyword before the name says which.
 */
const KEYWORD_KINDS: Readonly<Record<string, string>> = {
  class: "class",
  actor: "class",
  struct: "struct",
  enum: "enum",
  extension: "extension",
  interface: "interface",
  protocol: "protocol",
  object: "object",
};

/** Node types holding a variable whose value may be a function (const f = () => …). */
const VARIABLE_DECLARATOR = "variable_declarator";
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

const NAME_TYPES = new Set([
  "identifier",
  "type_identifier",
  "property_identifier",
  "field_identifier",
  "constant",
  "simple_identifier",
  "name",
  "private_property_identifier",
  "namespace_identifier",
]);

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0].trim();
  return line.length > 80 ? line.slice(0, 77) + "..." : line;
}

/** The declared name of a declaration node, by field, declarator chain or first name-like child. */
export function declarationName(node: SyntaxNodeLike): string {
  const bound = boundName(node);
  if (bound !== null) return bound;
  if (node.type === "section") {
    const heading = namedChildren(node).find((c) => c.type === "atx_heading" || c.type === "setext_heading");
    return heading ? firstLine(heading.text.replace(/^#+\s*/, "").replace(/\s*#*\s*$/, "")) : "";
  }
  if (node.type === "rule_set") {
    const sel = namedChildren(node).find((c) => c.type === "selectors");
    return sel ? firstLine(sel.text) : "";
  }
  if (node.type === "media_statement" || node.type === "keyframes_statement") {
    return firstLine(node.text.split("{", 1)[0]);
  }
  if (node.type === "impl_item") {
    const type = node.childForFieldName("type");
    const trait = node.childForFieldName("trait");
    if (type) return firstLine(trait ? `${trait.text} for ${type.text}` : type.text);
  }
  if (node.type === "type_declaration") {
    const spec = namedChildren(node).find((c) => c.type === "type_spec");
    if (spec) return declarationName(spec);
  }
  const named = node.childForFieldName("name");
  if (named) return firstLine(named.text);
  // C/C++: the name sits inside nested declarators (function_declarator > identifier).
  let decl = node.childForFieldName("declarator");
  while (decl) {
    if (NAME_TYPES.has(decl.type) || decl.type === "qualified_identifier" || decl.type === "destructor_name") return firstLine(decl.text);
    const inner: SyntaxNodeLike | null = decl.childForFieldName("declarator");
    if (!inner) break;
    decl = inner;
  }
  const child = namedChildren(node).find((c) => NAME_TYPES.has(c.type));
  return child ? firstLine(child.text) : "";
}

/**
 * Declarations whose name is the variable they are assigned to: Zig containers
 * (`const Point = struct {…}`) and Lua function values (`M.greet = function (…) … end`).
 * null when the node is not such a value.
 */
function boundName(node: SyntaxNodeLike): string | null {
  const parent = node.parent;
  if (!parent) return null;
  if (parent.type === "variable_declaration" && /^(struct|enum|union|opaque|error_set)_declaration$/.test(node.type)) {
    const id = namedChildren(parent).find((c) => c.type === "identifier");
    return id ? firstLine(id.text) : null;
  }
  if (node.type === "function_definition" && parent.type === "expression_list") {
    const list = parent.parent ? namedChildren(parent.parent).find((c) => c.type === "variable_list") : undefined;
    const target = list ? namedChildren(list)[0] : undefined;
    return target ? firstLine(target.text) : null;
  }
  return null;
}

/** The keyword kind of a class_declaration ("enum class Color" is an enum), or null. */
function keywordKind(node: SyntaxNodeLike): string | null {
  const nameNode = node.childForFieldName("name") ?? namedChildren(node).find((c) => c.type === "type_identifier" || c.type === "user_type");
  // startIndex counts bytes; the head before a name is modifiers and keywords, plain ASCII.
  const head = nameNode ? node.text.slice(0, Math.max(0, nameNode.startIndex - node.startIndex)) : node.text.split("{", 1)[0];
  const words = head.replace(/@[\w.]+(\([^)]*\))?/g, " ").split(/[^A-Za-z]+/);
  if (words.includes("enum")) return "enum";
  for (const w of words.reverse()) if (KEYWORD_KINDS[w]) return KEYWORD_KINDS[w];
  return null;
}

/**
 * A C/C++ declaration of a function without a body (a prototype in a header, a method declared
 * in a class): the name its function_declarator declares, or null for anything else (variables,
 * function pointers).
 */
function prototypeName(node: SyntaxNodeLike): string | null {
  if (node.type !== "declaration" && node.type !== "field_declaration") return null;
  let decl = node.childForFieldName("declarator");
  while (decl && (decl.type === "pointer_declarator" || decl.type === "reference_declarator")) {
    decl = decl.childForFieldName("declarator") ?? namedChildren(decl).at(-1) ?? null;
  }
  if (!decl || decl.type !== "function_declarator") return null;
  const name = decl.childForFieldName("declarator");
  if (!name || !(NAME_TYPES.has(name.type) || /^(qualified_identifier|destructor_name|operator_name|template_function)$/.test(name.type))) return null;
  return firstLine(name.text);
}

/** The first type or identifier name inside a C typedef's declarator (`(*compare_fn)(…)`). */
function typedefName(node: SyntaxNodeLike): string {
  const find = (n: SyntaxNodeLike | null): string => {
    if (!n) return "";
    if (n.type === "type_identifier" || n.type === "identifier") return firstLine(n.text);
    if (n.type === "parameter_list") return "";
    for (const c of namedChildren(n)) {
      const found = find(c);
      if (found) return found;
    }
    return "";
  };
  return find(node.childForFieldName("declarator"));
}

/** A C/C++ typedef as one item: the struct/enum/union it defines (named by the typedef when anonymous), or a type alias. */
function typedefItem(node: SyntaxNodeLike, walk: (n: SyntaxNodeLike, parentKind: string | null) => OutlineItem[]): OutlineItem {
  const alias = typedefName(node);
  const spec = node.childForFieldName("type");
  if (spec && SPECIFIERS.has(spec.type) && spec.childForFieldName("body")) {
    const kind = DECLARATION_KINDS[spec.type];
    // The typedef's name is the one the code uses (`typedef struct node {…} Node;`).
    return { kind, name: alias || (spec.childForFieldName("name")?.text ?? ""), startLine: startLine(node), endLine: endLine(node), children: walk(spec, kind) };
  }
  return { kind: "type", name: alias, startLine: startLine(node), endLine: endLine(node), children: [] };
}

function functionValuedDeclarator(node: SyntaxNodeLike): boolean {
  if (node.type !== VARIABLE_DECLARATOR) return false;
  const value = node.childForFieldName("value");
  return !!value && FUNCTION_VALUES.has(value.type);
}

/** The outline of a parsed file. */
export function outlineFromTree(root: SyntaxNodeLike): OutlineItem[] {
  // Grammars the node-type table cannot read (Haskell) have their own walker.
  const reader = outlineReaderFor(root);
  if (reader) return reader.outline(root);
  const walk = (node: SyntaxNodeLike, parentKind: string | null): OutlineItem[] => {
    const items: OutlineItem[] = [];
    let previous: SyntaxNodeLike | null = null;
    for (const child of namedChildren(node)) {
      const before = previous;
      previous = child;
      // Own keys only: a node type such as `constructor` must not find Object.prototype's.
      let kind: string | undefined = Object.hasOwn(DECLARATION_KINDS, child.type) ? DECLARATION_KINDS[child.type] : undefined;
      // A section without a heading child is not a markdown section (other grammars use "section").
      if (kind === "heading" && !namedChildren(child).some((c) => c.type === "atx_heading" || c.type === "setext_heading")) kind = undefined;
      if (kind === undefined && functionValuedDeclarator(child)) kind = "function";
      if (SPECIFIERS.has(child.type) && !child.childForFieldName("body")) kind = undefined;
      if (child.type === "type_definition" && child.childForFieldName("declarator")) {
        items.push(typedefItem(child, walk));
        continue;
      }
      // `describe("Parser", () => …)`, `it "parses" do … end`, `TEST(Parser, Empty) {…}` (a
      // function definition to C++'s grammar): suites and tests by their titles.
      const test = testCallOf(child, before);
      if (test) {
        items.push({ kind: test.kind, name: test.written, startLine: startLine(child), endLine: endLine(child), children: walk(child, test.kind) });
        continue;
      }
      const prototype = kind === undefined ? prototypeName(child) : null;
      if (prototype !== null) {
        const protoKind = parentKind !== null && CLASS_LIKE.has(parentKind) ? "method" : "function";
        items.push({ kind: protoKind, name: prototype, startLine: startLine(child), endLine: endLine(child), children: [] });
        continue;
      }
      if (child.type === "class_declaration" || child.type === "object_declaration") kind = keywordKind(child) ?? kind;
      // Go: `type X struct {…}` / `type X interface {…}` say what they are.
      if (child.type === "type_spec") kind = GO_TYPE_KINDS[child.childForFieldName("type")?.type ?? ""] ?? kind;
      // Go groups type specs under type_declaration; Python wraps decorated ones: look through.
      if (kind === undefined && (child.type === "type_declaration" || child.type === "decorated_definition")) {
        items.push(...walk(child, parentKind).map((item) => ({ ...item, startLine: Math.min(item.startLine, startLine(child)) })));
        continue;
      }
      // A function without a name is a value (Lua's `function() … end` passed as an argument):
      // what it holds is listed, not the function.
      if (kind === undefined || (kind === "function" && child.type === "function_definition" && !declarationName(child))) {
        items.push(...walk(child, parentKind));
        continue;
      }
      if (kind === "function" && parentKind !== null && CLASS_LIKE.has(parentKind)) kind = "method";
      items.push({
        kind,
        name: declarationName(child),
        startLine: startLine(child),
        endLine: endLine(child),
        children: walk(child, kind),
      });
    }
    return items;
  };
  return walk(root, null);
}

/** Counts items per kind over the whole (nested) outline. */
export function countKinds(items: OutlineItem[]): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (list: OutlineItem[]) => {
    for (const item of list) {
      counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
      visit(item.children);
    }
  };
  visit(items);
  return counts;
}
