// Find usages (F19): where an identifier occurs in one parsed file — identifier tokens equal to
// the name, never substrings of longer names, never inside comments or strings unless asked —
// without the declaration that defines it. Portable: no Node.
import { DECLARATION_KINDS } from "./skeleton.js";
import { namedChildren, type SyntaxNodeLike } from "./syntax-node.js";
import { classifyUse, classifyUseInLine, type UseKind } from "./use-kind.js";

export interface Occurrence {
  /** 1-based line. */
  line: number;
  /** 0-based column. */
  column: number;
  /** "code" for identifier tokens; "comment" or "string" when those were asked for. */
  where: "code" | "comment" | "string";
  /** How the code uses it (import, call, type…); "mention" in a comment or string. */
  use: UseKind;
}

export interface FindOccurrencesOptions {
  /** Also report whole-word matches inside comments and string literals. */
  includeCommentsAndStrings?: boolean;
}

/** OCaml's names: a leaf per namespace (values, modules, types, constructors, classes, methods). */
const OCAML_NAMES = new Set(["value_name", "module_name", "module_type_name", "type_constructor", "constructor_name", "class_name", "method_name", "field_name"]);

/** PowerShell's names: a function's and a command's (`Invoke-Build`), a class's, method's or enum's. */
const POWERSHELL_NAMES = new Set(["function_name", "command_name", "simple_name"]);

/** Leaf node types that are identifiers in the bundled grammars. */
function isIdentifierType(type: string): boolean {
  // Haskell's lower-case names are `variable` leaves.
  // Emacs Lisp's names are `symbol` leaves; PowerShell's are leaves of their own.
  return type.endsWith("identifier") || type === "constant" || type === "name" || type === "word" || type === "variable" || type === "symbol" || type === "shorthand_property_identifier_pattern" || OCAML_NAMES.has(type) || POWERSHELL_NAMES.has(type);
}

function isCommentType(type: string): boolean {
  return type.includes("comment");
}

function isStringType(type: string): boolean {
  return type === "string" || type.endsWith("string_literal") || type === "template_string" || type === "string_content" || type === "raw_string_literal" || type === "interpreted_string_literal";
}

/** C/C++ declarators the declared name is nested in (`*f(…)`, `&r`, `x = 1`). */
const DECLARATORS = new Set(["function_declarator", "pointer_declarator", "reference_declarator", "init_declarator"]);

const DEFINING_PARENTS = new Set([
  ...Object.keys(DECLARATION_KINDS),
  ...DECLARATORS,
  "variable_declarator",
  "type_spec",
  "enum_assignment",
  // C/C++: prototypes, variables, typedefs and members name what they declare; so does a
  // constant's `#define`.
  "declaration",
  "field_declaration",
  "type_definition",
  "preproc_def",
  // Haskell: a type signature and each equation of a function name it; so does a binding.
  "signature",
  "function",
  "bind",
  // Dart: a function's name is in its signature, apart from its body.
  "function_signature",
  "getter_signature",
  "setter_signature",
  "constructor_signature",
  "factory_constructor_signature",
  "mixin_declaration",
  // Solidity
  "contract_declaration",
  "library_declaration",
  "modifier_definition",
  "event_definition",
  "error_declaration",
  // OCaml: `let name …` (its pattern), `module Name = …`, `type name = …`
  "let_binding",
  "module_binding",
  "module_type_definition",
  "type_binding",
  "class_binding",
  // Objective-C
  "class_interface",
  "class_implementation",
  // Emacs Lisp's `defmacro`; ReScript's `external` and `exception`
  "macro_definition",
  "external_declaration",
  "exception_declaration",
  // Make's and the shell's `NAME = value`
  "variable_assignment",
  // PowerShell
  "function_statement",
  "class_statement",
  "class_method_definition",
  "enum_statement",
]);

/**
 * Declarations whose name has no field, and the node types their name may be: the first child of
 * one of them. Kotlin and Swift (not impl_item: `impl Point` uses Point), Objective-C (a
 * method's is its selector's first part), and OCaml's leaves of their own.
 */
const KOTLIN_SWIFT_NAME = ["simple_identifier", "type_identifier"];
const NAME_CHILD_TYPES: Readonly<Record<string, readonly string[]>> = {
  class_declaration: KOTLIN_SWIFT_NAME,
  object_declaration: KOTLIN_SWIFT_NAME,
  function_declaration: KOTLIN_SWIFT_NAME,
  protocol_declaration: [...KOTLIN_SWIFT_NAME, "identifier"],
  protocol_function_declaration: KOTLIN_SWIFT_NAME,
  class_interface: ["identifier"],
  class_implementation: ["identifier"],
  method_definition: ["identifier"],
  method_declaration: ["identifier"],
  module_type_definition: ["module_type_name"],
  type_binding: ["type_constructor"],
  class_binding: ["class_name"],
  external_declaration: ["value_identifier"],
  exception_declaration: ["variant_identifier"],
  function_statement: ["function_name"],
  class_statement: ["simple_name"],
  class_method_definition: ["simple_name"],
  enum_statement: ["simple_name"],
};

/**
 * Emacs Lisp defines with forms whose head says so (`defvar`, `cl-defun`, `defcustom`,
 * `define-minor-mode`, `transient-define-prefix`): the symbol right after the head is the name.
 */
const LISP_DEFINING_HEAD = /^\(\s*(?:def|cl-def|define-|transient-define-)[^\s()]*\s/;

/** Elixir's defining macros: `def name(args) do`, `defp name(args), do: …`, `def name do`. */
const ELIXIR_DEFINING = new Set(["def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate"]);

/** The argument list of an Elixir `def`-like call, whose first argument is the head it defines. */
function isElixirDefArguments(node: SyntaxNodeLike | null): boolean {
  const call = node?.type === "arguments" ? node.parent : null;
  return call?.type === "call" && ELIXIR_DEFINING.has(call.childForFieldName("target")?.text ?? "");
}

/**
 * Nodes that name something only in some uses, and where the name then is; for these types the
 * locator alone decides (a C# `attribute` has a `name` field but declares nothing).
 */
const NAME_LOCATORS: Readonly<Record<string, (node: SyntaxNodeLike) => SyntaxNodeLike | null>> = {
  // Emacs Lisp: a special form's head is a keyword token, a list's its first symbol.
  special_form: (form) => (LISP_DEFINING_HEAD.test(form.text) ? (namedChildren(form)[0] ?? null) : null),
  list: (form) => (LISP_DEFINING_HEAD.test(form.text) ? (namedChildren(form)[1] ?? null) : null),
  // HCL: `name = value` in a block's body (Terraform's locals and arguments).
  attribute: (attribute) => (attribute.parent?.type === "body" ? (namedChildren(attribute)[0] ?? null) : null),
  // R: `scale_to <- function(x) …`, `=`, `<<-` (the grammar's only `lhs` field).
  binary_operator: (assignment) => (/^(?:<<?-|=|:=)$/.test(assignment.childForFieldName("operator")?.text ?? "") ? assignment.childForFieldName("lhs") : null),
  // Elixir: the head `name(args)` of a `def`, a guarded one's (`name(x) when …`) too.
  call: (head) => {
    const guard = head.parent?.type === "binary_operator" && head.parent.childForFieldName("left")?.startIndex === head.startIndex ? head.parent : null;
    const argument = guard ?? head;
    const isFirst = isElixirDefArguments(argument.parent) && namedChildren(argument.parent!)[0]?.startIndex === argument.startIndex;
    return isFirst ? head.childForFieldName("target") : null;
  },
  // Elixir: `def name do` names its function with a bare identifier.
  arguments: (args) => (isElixirDefArguments(args) ? (namedChildren(args)[0] ?? null) : null),
};

/** True when `node` is the name a declaration introduces (e.g. `foo` in `function foo()`). */
export function isDefinitionName(node: SyntaxNodeLike): boolean {
  let child = node;
  let parent = node.parent;
  // C/C++ nest the name in declarators: climb through them to the declaration.
  for (let depth = 0; parent && depth < 6; depth++) {
    const locate = Object.hasOwn(NAME_LOCATORS, parent.type) ? NAME_LOCATORS[parent.type] : null;
    if (!locate && !DEFINING_PARENTS.has(parent.type)) return false;
    // Grammars without a name field (Kotlin, Swift, Objective-C) hold the name as a child of its own type.
    const nameTypes = Object.hasOwn(NAME_CHILD_TYPES, parent.type) ? NAME_CHILD_TYPES[parent.type] : null;
    const name = locate
      ? locate(parent)
      : (parent.childForFieldName("name") ??
        parent.childForFieldName("declarator") ??
        (parent.type === "let_binding" ? parent.childForFieldName("pattern") : null) ??
        (nameTypes ? (namedChildren(parent).find((c) => nameTypes.includes(c.type)) ?? null) : null));
    if (!name || name.startIndex !== child.startIndex || name.type !== child.type) return false;
    if (!DECLARATORS.has(parent.type)) return true;
    child = parent;
    parent = parent.parent;
  }
  return false;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A regex matching `name` as a whole word (identifier characters do not continue it). A Lisp
 * name (`magit-tag`) is not whole where a hyphen goes on with it (`magit-tag-create`).
 */
export function wholeWordRegExp(name: string): RegExp {
  const word = name.includes("-") ? "A-Za-z0-9_$-" : "A-Za-z0-9_$";
  return new RegExp(`(?<![${word}])${escapeRegExp(name)}(?![${word}])`, "g");
}

/** Occurrences of `name` in a parsed file, sorted by position, the definition left out. */
export function findOccurrences(root: SyntaxNodeLike, name: string, options: FindOccurrencesOptions = {}): Occurrence[] {
  const found: Occurrence[] = [];
  const word = wholeWordRegExp(name);
  const stack: SyntaxNodeLike[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const kids = namedChildren(node);
    const commentOrString = isCommentType(node.type) ? "comment" : isStringType(node.type) ? "string" : null;
    if (commentOrString) {
      if (options.includeCommentsAndStrings) {
        const lines = node.text.split("\n");
        lines.forEach((text, i) => {
          for (const m of text.matchAll(word)) {
            found.push({
              line: node.startPosition.row + 1 + i,
              column: (i === 0 ? node.startPosition.column : 0) + (m.index ?? 0),
              where: commentOrString,
              use: "mention",
            });
          }
        });
      }
      continue;
    }
    if (kids.length === 0) {
      if (node.isNamed && isIdentifierType(node.type) && node.text === name && !isDefinitionName(node)) {
        found.push({ line: node.startPosition.row + 1, column: node.startPosition.column, where: "code", use: classifyUse(node) });
      }
      continue;
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  found.sort((a, b) => a.line - b.line || a.column - b.column);
  return found;
}

/**
 * For files without a grammar: whole-word matches per line, skipping lines that only hold a
 * comment (`//`, `#`, `--`, `/*`, and MATLAB's and TeX's `%`) and lines that look like the
 * definition (`function name`, `def name`, `class name`…, MATLAB's `function y = name`).
 */
export function findOccurrencesInText(content: string, name: string): Occurrence[] {
  const word = wholeWordRegExp(name);
  const after = `${escapeRegExp(name)}(?![A-Za-z0-9_$])`;
  const definition = new RegExp(`\\b(?:function|def|class|fn|func|interface|type|struct|enum|trait|const|let|var)\\s+${after}|\\bfunction\\s+(?:\\[[^\\]]*\\]|\\w+)\\s*=\\s*${after}`);
  const found: Occurrence[] = [];
  content.split("\n").forEach((text, i) => {
    if (/^\s*(?:\/\/|#|--|\*|\/\*|%)/.test(text) || definition.test(text)) return;
    for (const m of text.matchAll(word)) found.push({ line: i + 1, column: m.index ?? 0, where: "code", use: classifyUseInLine(text, name, m.index ?? 0) });
  });
  return found;
}
