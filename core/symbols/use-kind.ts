// What kind of use an identifier occurrence is (import, re-export, call, type reference), read
// from the node types the bundled grammars share, so find_usages can say how each file uses a
// symbol and not only how often. Heuristic but grammar-neutral; anything unmatched is "other".
// Portable: no Node.
import { namedChildren, type SyntaxNodeLike } from "./syntax-node.js";

export type UseKind = "import" | "re-export" | "call" | "type" | "other" | "mention";

/** The order kinds are listed in: the ones that say most about a dependency first. */
export const USE_KINDS: readonly UseKind[] = ["import", "re-export", "call", "type", "other", "mention"];

/** Declarations that bring a name in from elsewhere, beyond types containing "import". */
const IMPORT_TYPES = new Set(["use_declaration", "using_directive", "namespace_use_declaration", "preproc_include"]);

/** Expressions that call or construct what their callee names. */
const CALL_TYPES = new Set([
  "call_expression",
  "call",
  "method_invocation",
  "invocation_expression",
  "function_call_expression",
  "member_call_expression",
  "scoped_call_expression",
  "macro_invocation",
  "new_expression",
  "object_creation_expression",
  // A shell command runs what its command_name names.
  "command",
  // Objective-C's message send names its method (`[self increment]`); OCaml applies a function.
  "message_expression",
  "application_expression",
]);

/** Fields a call or construction names its callee with, across the grammars. */
const CALLEE_FIELDS = ["function", "constructor", "method", "name", "type"];

/** Fields a member access (`a.b`, `a::b`) names its member with. */
const MEMBER_FIELDS = ["property", "field", "attribute", "name"];

/** Class headers whose names are types even where the grammar calls them identifiers. */
const HERITAGE_TYPES = new Set(["extends_clause", "implements_clause", "superclass", "super_interfaces", "base_list", "delegation_specifier"]);

/** How far up an occurrence may sit below the declaration that imports it (`a::b::{c, d}`). */
const MAX_IMPORT_DEPTH = 8;

function same(a: SyntaxNodeLike | null, b: SyntaxNodeLike): boolean {
  return a !== null && a.startIndex === b.startIndex && a.type === b.type && a.text.length === b.text.length;
}

function isImportDeclaration(type: string): boolean {
  return (type.includes("import") && type !== "import_expression") || IMPORT_TYPES.has(type);
}

/** "import" or "re-export" when the occurrence sits in an import, an `export … from` or a `pub use`. */
function importKind(node: SyntaxNodeLike): UseKind | null {
  let parent = node.parent;
  for (let depth = 0; parent && depth < MAX_IMPORT_DEPTH; depth++, parent = parent.parent) {
    if (parent.type === "export_statement") return parent.childForFieldName("source") ? "re-export" : null;
    if (parent.type === "use_declaration") return parent.namedChildren.some((c) => c?.type === "visibility_modifier") ? "re-export" : "import";
    if (isImportDeclaration(parent.type)) return "import";
    // CommonJS: `const { a } = require("./m")` names what it imports in the pattern.
    if (parent.type === "variable_declarator") {
      const value = parent.childForFieldName("value");
      const callee = value?.type === "call_expression" ? value.childForFieldName("function") : null;
      return callee?.text === "require" && !same(value, node) ? "import" : null;
    }
  }
  return null;
}

/** True when the occurrence is what a call invokes (`f()`, `a.f()`, `new F()`). */
function isCallee(node: SyntaxNodeLike): boolean {
  let target = node;
  const parent = node.parent;
  // A shell command's name and OCaml's `Module.name` path stand for the name they hold.
  const holder = parent?.type === "command_name" || parent?.type === "value_path";
  if (parent && (holder || (!CALL_TYPES.has(parent.type) && MEMBER_FIELDS.some((f) => same(parent.childForFieldName(f), node))))) target = parent;
  const call = target.parent;
  if (!call || !CALL_TYPES.has(call.type)) return false;
  for (const field of CALLEE_FIELDS) {
    const callee = call.childForFieldName(field);
    if (callee) return same(callee, target);
  }
  // Grammars without a callee field (Kotlin) hold it as the first named child.
  return same(call.namedChildren.find((c) => c !== null) ?? null, target);
}

/** Dart's member access (`a.f`, `a?.f`) holds the member in a selector of its own. */
const DART_MEMBER_SELECTORS = new Set(["unconditional_assignable_selector", "conditional_assignable_selector"]);

/**
 * Dart writes no call node: a callee is followed by a selector that holds the arguments, `f(1)`
 * as `f` then `(1)`, `a.f(1)` as `a`, `.f`, `(1)`. Constructors (`Counter()`) read the same.
 */
function isDartCallee(node: SyntaxNodeLike): boolean {
  const parent = node.parent;
  const target = parent && DART_MEMBER_SELECTORS.has(parent.type) ? parent.parent : node;
  if (!target?.parent) return false;
  const siblings = namedChildren(target.parent);
  const next = siblings[siblings.findIndex((s) => same(s, target)) + 1];
  return next?.type === "selector" && namedChildren(next)[0]?.type === "argument_part";
}

/** A pipe (`x->f`, `x |> f` in ReScript) calls the function on its right. */
function isPipedCallee(node: SyntaxNodeLike): boolean {
  const pipe = node.parent;
  if (pipe?.type !== "pipe_expression") return false;
  const operands = namedChildren(pipe);
  return operands.length === 2 && same(operands[1], node);
}

/** A Lisp form calls what its first symbol names (`(magit-tag-create name rev)`), unless quoted data. */
function isLispCallee(node: SyntaxNodeLike): boolean {
  const list = node.parent;
  if (node.type !== "symbol" || list?.type !== "list" || list.parent?.type === "quote") return false;
  return same(namedChildren(list)[0] ?? null, node) && list.text.startsWith("(");
}

function isTypeReference(node: SyntaxNodeLike): boolean {
  if (node.type.includes("type_identifier")) return true;
  const parentType = node.parent?.type ?? "";
  return parentType === "type" || parentType.endsWith("_type") || parentType.startsWith("type_") || HERITAGE_TYPES.has(parentType);
}

/** The kind of use an identifier leaf is, from where it sits in the tree. */
export function classifyUse(node: SyntaxNodeLike): UseKind {
  const imported = importKind(node);
  if (imported) return imported;
  if (isCallee(node) || isDartCallee(node) || isPipedCallee(node) || isLispCallee(node)) return "call";
  if (isTypeReference(node)) return "type";
  return "other";
}

/** The same question for a line of a file no grammar covers, by its shape. */
export function classifyUseInLine(text: string, name: string, column: number): UseKind {
  if (/^\s*export\b.*\bfrom\b/.test(text)) return "re-export";
  if (/^\s*(?:import|from|use|using|require|#include)\b/.test(text) || /\brequire\s*\(/.test(text)) return "import";
  if (/^\s*\(/.test(text.slice(column + name.length))) return "call";
  return "other";
}
