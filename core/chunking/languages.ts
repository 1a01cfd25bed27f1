// One small table per tree-sitter language: which syntax nodes are chunk units and what kind
// each is. The tables become tree-sitter queries (ast-chunker.ts); everything else (nesting,
// context, splitting, merging) is shared. To add a language, add a table here.
import type { Node } from "web-tree-sitter";
import { headerHasWord, keywordOf, nameOf, singleLine } from "./syntax.js";

/** What a language's `refine` may say about a unit; absent fields keep the generic answer. */
export interface Refinement {
  kind?: string;
  symbol?: string;
  /** The name as shown in the context when it differs from the symbol (`Store.prototype.get`). */
  qualifiedName?: string;
  /** The parameter list, for grammars where it is not a `parameters` node (Elixir). */
  params?: string;
}

export interface AstLanguage {
  /** Language name reported on chunks (tsx reports "typescript", jsx "javascript"). */
  language: string;
  /** Grammar file stem: `<grammar>.wasm`. */
  grammar: string;
  extensions: string[];
  /**
   * Chunk kind -> node types (shorthand for `(type) @kind`) or full query patterns that
   * capture `@kind` themselves (captures named `@_…` only serve predicates).
   */
  units: Record<string, string[]>;
  /** Parent node types that belong to the unit they wrap (`export`, decorators, templates). */
  wrappers?: string[];
  /** Node types that, directly before a unit, belong to it (doc comments, attributes). */
  leading?: string[];
  /**
   * Containers that are never units themselves (kind -> node types): what they hold is chunked
   * as if they were not there, and they only show in the context (`namespace Shop > class Cart`).
   * For wrappers around a whole file, such as C# namespaces, where the container as a chunk
   * would hide every type it declares.
   */
  transparent?: Record<string, string[]>;
  /** Kinds that always become their own chunk, even inside a unit that fits (HTML script/style). */
  detached?: string[];
  /** Language-specific kind or name, when the node type alone does not say. */
  refine?: (node: Node, kind: string) => Refinement | null;
  /**
   * Kinds whose consecutive units of one name, side by side under one parent, are parts of one
   * declaration and become one unit (Haskell: a type signature and the equations of a function).
   */
  clauses?: string[];
  /**
   * The node before `node` where leading comments may sit, when the grammar does not keep them
   * as its previous sibling (Haskell puts the comment above the first declaration at the end of
   * the imports). Default: the previous named sibling.
   */
  previous?: (node: Node) => Node | null;
}

const COMMENTS = ["comment", "line_comment", "block_comment"];

// One pattern per value type: a field followed by an alternation (`value: [(a) (b)]`) also
// matched non-function values under web-tree-sitter 0.25.
const jsFunctionValues = ["arrow_function", "function_expression", "generator_function"];
const jsBoundFunctions = ["lexical_declaration", "variable_declaration"].flatMap((decl) =>
  jsFunctionValues.map((value) => `(${decl} (variable_declarator value: (${value}))) @function`),
);
// Components wrapped in a call (`const Row = memo((props) => …)`, `forwardRef(function …)`).
const jsWrappedFunctions = ["lexical_declaration", "variable_declaration"].flatMap((decl) =>
  ["arrow_function", "function_expression"].map(
    (value) => `(${decl} (variable_declarator value: (call_expression arguments: (arguments . (${value}))))) @function`,
  ),
);
// `Store.prototype.get = function () {…}`, `exports.create = () => …`: named by the target.
const jsAssignedFunctions = jsFunctionValues.map(
  (value) => `(expression_statement (assignment_expression left: (member_expression) right: (${value}))) @function`,
);

function refineJs(node: Node): Refinement | null {
  if (node.type !== "expression_statement") return null;
  const target = node.namedChildren[0]?.childForFieldName("left");
  const qualifiedName = singleLine(target?.text ?? "");
  return {
    kind: qualifiedName.includes(".prototype.") ? "method" : "function",
    symbol: target?.childForFieldName("property")?.text ?? "",
    qualifiedName,
  };
}

const javascriptUnits: Record<string, string[]> = {
  function: [
    "function_declaration",
    "generator_function_declaration",
    ...jsBoundFunctions,
    ...jsWrappedFunctions,
    ...jsAssignedFunctions,
  ],
  method: ["method_definition"],
  class: ["class_declaration"],
};

const typescriptUnits: Record<string, string[]> = {
  ...javascriptUnits,
  function: [...javascriptUnits.function, "function_signature"],
  method: ["method_definition", "abstract_method_signature"],
  class: ["class_declaration", "abstract_class_declaration"],
  interface: ["interface_declaration"],
  type: ["type_alias_declaration"],
  enum: ["enum_declaration"],
  namespace: ["internal_module", "module"],
};

const jsWrappers = ["export_statement", "ambient_declaration"];
const jsLeading = [...COMMENTS, "decorator"];

const swiftTypeKeywords = ["class", "struct", "enum", "extension", "actor"] as const;

export const AST_LANGUAGES: AstLanguage[] = [
  {
    language: "typescript",
    grammar: "tree-sitter-typescript",
    extensions: [".ts", ".mts", ".cts"],
    units: typescriptUnits,
    wrappers: jsWrappers,
    leading: jsLeading,
    refine: refineJs,
  },
  {
    language: "typescript",
    grammar: "tree-sitter-tsx",
    extensions: [".tsx"],
    units: typescriptUnits,
    wrappers: jsWrappers,
    leading: jsLeading,
    refine: refineJs,
  },
  {
    language: "javascript",
    grammar: "tree-sitter-javascript",
    extensions: [".js", ".mjs", ".cjs", ".jsx"],
    units: javascriptUnits,
    wrappers: ["export_statement"],
    leading: jsLeading,
    refine: refineJs,
  },
  {
    language: "python",
    grammar: "tree-sitter-python",
    extensions: [".py", ".pyi", ".pyw"],
    units: { function: ["function_definition"], class: ["class_definition"] },
    wrappers: ["decorated_definition"],
    leading: COMMENTS,
  },
  {
    language: "java",
    grammar: "tree-sitter-java",
    extensions: [".java"],
    units: {
      class: ["class_declaration"],
      interface: ["interface_declaration", "annotation_type_declaration"],
      enum: ["enum_declaration"],
      record: ["record_declaration"],
      method: ["method_declaration"],
      constructor: ["constructor_declaration"],
    },
    leading: COMMENTS,
  },
  {
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
  },
  {
    language: "rust",
    grammar: "tree-sitter-rust",
    extensions: [".rs"],
    units: {
      function: ["function_item", "function_signature_item"],
      struct: ["struct_item", "union_item"],
      enum: ["enum_item"],
      trait: ["trait_item"],
      impl: ["impl_item"],
      module: ["(mod_item body: (_)) @module"],
      type: ["type_item"],
      macro: ["macro_definition"],
    },
    leading: [...COMMENTS, "attribute_item"],
    refine(node) {
      if (node.type !== "impl_item") return null;
      const type = node.childForFieldName("type")?.text ?? "";
      const trait = node.childForFieldName("trait")?.text;
      return { symbol: trait ? `${trait} for ${type}` : type };
    },
  },
  {
    language: "c",
    grammar: "tree-sitter-c",
    extensions: [".c", ".h"],
    units: {
      function: ["function_definition"],
      struct: ["(struct_specifier body: (_)) @struct", "(union_specifier body: (_)) @struct"],
      enum: ["(enum_specifier body: (_)) @enum"],
      type: ["type_definition"],
    },
    leading: COMMENTS,
    refine: refineTypedef,
  },
  {
    language: "cpp",
    grammar: "tree-sitter-cpp",
    extensions: [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".inl"],
    units: {
      function: ["function_definition"],
      class: ["(class_specifier body: (_)) @class"],
      struct: ["(struct_specifier body: (_)) @struct", "(union_specifier body: (_)) @struct"],
      enum: ["(enum_specifier body: (_)) @enum"],
      namespace: ["namespace_definition"],
      type: ["type_definition", "alias_declaration"],
    },
    wrappers: ["template_declaration"],
    leading: COMMENTS,
    refine(node, kind) {
      // `Matrix<T>::multiply` defined outside its class is still a method of that class.
      if (node.type === "function_definition") {
        const symbol = nameOf(node);
        return { kind: symbol.includes("::") ? "method" : kind, symbol };
      }
      return refineTypedef(node, kind);
    },
  },
  {
    language: "csharp",
    grammar: "tree-sitter-c_sharp",
    extensions: [".cs", ".csx"],
    units: {
      class: ["class_declaration"],
      interface: ["interface_declaration"],
      struct: ["struct_declaration"],
      enum: ["enum_declaration"],
      record: ["record_declaration"],
      method: ["method_declaration", "operator_declaration"],
      constructor: ["constructor_declaration"],
      property: ["property_declaration"],
      type: ["delegate_declaration"],
    },
    // A namespace usually wraps the whole file: its types are the units.
    transparent: { namespace: ["namespace_declaration", "file_scoped_namespace_declaration"] },
    leading: COMMENTS,
  },
  {
    language: "ruby",
    grammar: "tree-sitter-ruby",
    extensions: [".rb", ".rake", ".gemspec", ".ru"],
    units: {
      function: ["method"],
      method: ["singleton_method"],
      class: ["class", "singleton_class"],
      module: ["module"],
    },
    leading: COMMENTS,
  },
  {
    language: "kotlin",
    grammar: "tree-sitter-kotlin",
    extensions: [".kt", ".kts"],
    units: {
      class: ["class_declaration", "object_declaration", "companion_object"],
      function: ["function_declaration"],
      constructor: ["secondary_constructor"],
      property: ["property_declaration"],
      type: ["type_alias"],
    },
    leading: COMMENTS,
    refine(node, kind) {
      if (node.type === "function_declaration") {
        // Extension functions read as `Note.preview`: the receiver type comes before the name.
        const name = node.namedChildren.find((c) => c?.type === "simple_identifier")?.text ?? "";
        const receiver = node.namedChildren.find((c) => c?.type === "user_type" && c.startIndex < (node.namedChildren.find((n) => n?.type === "simple_identifier")?.startIndex ?? 0));
        return { symbol: receiver ? `${receiver.text}.${name}` : name };
      }
      if (node.type !== "class_declaration") return null;
      if (node.namedChildren.some((c) => c?.type === "enum_class_body")) return { kind: "enum" };
      if (headerHasWord(node, "interface")) return { kind: "interface" };
      return { kind };
    },
  },
  {
    language: "swift",
    grammar: "tree-sitter-swift",
    extensions: [".swift"],
    units: {
      class: ["class_declaration"],
      protocol: ["protocol_declaration"],
      function: ["function_declaration", "protocol_function_declaration"],
      constructor: ["init_declaration"],
      property: ["property_declaration"],
      type: ["typealias_declaration"],
    },
    leading: COMMENTS,
    refine(node, kind) {
      if (node.type !== "class_declaration") return null;
      const keyword = keywordOf(node, swiftTypeKeywords);
      return { kind: keyword === "actor" ? "class" : keyword ?? kind };
    },
  },
  {
    language: "json",
    grammar: "tree-sitter-json",
    extensions: [".json", ".jsonc", ".json5", ".webmanifest"],
    units: { key: ["(document (object (pair) @key))"] },
    leading: COMMENTS, // JSONC (tsconfig.json, settings files)
    refine(node) {
      const key = node.childForFieldName("key");
      return { symbol: key ? singleLine(key.text.replace(/^"|"$/g, "")) : "" };
    },
  },
  {
    language: "xml",
    grammar: "tree-sitter-xml",
    extensions: [".xml", ".xsd", ".xsl", ".xslt", ".csproj", ".vbproj", ".fsproj", ".props", ".targets", ".xaml", ".resx", ".plist", ".svg", ".nuspec", ".wsdl"],
    units: {
      element: ["(document (element) @element)", "(document (element (content (element) @element)))"],
    },
    refine(node) {
      const tag = node.namedChildren.find((c) => c?.type === "STag" || c?.type === "EmptyElemTag");
      const name = tag?.namedChildren.find((c) => c?.type === "Name");
      return { symbol: name?.text ?? "" };
    },
  },
  htmlLike("html", [".html", ".htm", ".xhtml"]),
  // Single-file components: their <template>, <script> and <style> blocks parse as HTML.
  htmlLike("vue", [".vue"]),
  htmlLike("svelte", [".svelte"]),
  {
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
  },
  {
    language: "php",
    grammar: "tree-sitter-php",
    extensions: [".php", ".phtml"],
    units: {
      class: ["class_declaration"],
      interface: ["interface_declaration"],
      trait: ["trait_declaration"],
      enum: ["enum_declaration"],
      namespace: ["(namespace_definition body: (_)) @namespace"],
      function: ["function_definition"],
      method: ["method_declaration"],
    },
    leading: [...COMMENTS, "attribute_list"],
  },
  {
    language: "scala",
    grammar: "tree-sitter-scala",
    extensions: [".scala", ".sc"],
    units: {
      class: ["class_definition", "object_definition"],
      trait: ["trait_definition"],
      function: ["function_definition"],
    },
    leading: [...COMMENTS, "annotation"],
  },
  {
    language: "bash",
    grammar: "tree-sitter-bash",
    extensions: [".sh", ".bash", ".zsh"],
    units: { function: ["function_definition"] },
    leading: COMMENTS,
  },
  {
    language: "zig",
    grammar: "tree-sitter-zig",
    extensions: [".zig"],
    // Zig types are values: `const Point = struct {…}` declares the type Point.
    units: {
      function: ["function_declaration"],
      struct: ["struct_declaration", "union_declaration", "opaque_declaration"].map((t) => `(variable_declaration (${t})) @struct`),
      enum: ["enum_declaration", "error_set_declaration"].map((t) => `(variable_declaration (${t})) @enum`),
      test: ["test_declaration"],
    },
    leading: COMMENTS,
    refine(node) {
      if (node.type !== "test_declaration") return null;
      // `test "adds points" {…}` or a decltest `test helper {…}`.
      const name = node.namedChildren.find((c) => c?.type === "string" || c?.type === "identifier");
      const text = name?.type === "string" ? (name.namedChildren.find((c) => c?.type === "string_content")?.text ?? "") : (name?.text ?? "");
      return { symbol: singleLine(text) };
    },
  },
  {
    language: "lua",
    grammar: "tree-sitter-lua",
    extensions: [".lua"],
    units: {
      function: [
        "function_definition_statement",
        "local_function_definition_statement",
        // `M.compute = function (x) … end`, `local handler = function (evt) … end`
        "(variable_assignment (expression_list value: (function_definition))) @function",
        "(local_variable_declaration (expression_list value: (function_definition))) @function",
      ],
    },
    leading: COMMENTS,
    refine: refineLua,
  },
  {
    language: "elixir",
    grammar: "tree-sitter-elixir",
    extensions: [".ex", ".exs"],
    // Elixir declarations are macro calls: `def name(args) do … end`.
    units: {
      module: ['(call target: (identifier) @_k (#any-of? @_k "defmodule" "defprotocol" "defimpl")) @module'],
      function: ['(call target: (identifier) @_k (#any-of? @_k "def" "defp" "defmacro" "defmacrop" "defguard" "defdelegate")) @function'],
    },
    // `@doc`, `@spec` and other module attributes above a def belong to it.
    leading: [...COMMENTS, "unary_operator"],
    refine(node) {
      const head = node.namedChildren.find((c) => c?.type === "arguments")?.namedChildren[0];
      if (!head) return { symbol: "" };
      // `def add(cart, item)` is a call node; `def total(items) when …` wraps it in a binary operator.
      const call = head.type === "binary_operator" ? head.childForFieldName("left") : head;
      if (call?.type === "call") {
        const args = call.namedChildren.find((c) => c?.type === "arguments");
        return { symbol: call.childForFieldName("target")?.text ?? "", params: singleLine(args?.text ?? "") };
      }
      return { symbol: singleLine(head.text) };
    },
  },
  {
    language: "haskell",
    grammar: "tree-sitter-haskell",
    extensions: [".hs", ".hs-boot"],
    // Only declarations of the module, a class or an instance: `where` and `let` bindings stay
    // inside the function they belong to.
    units: {
      function: ["declarations", "class_declarations", "instance_declarations"].flatMap((list) => [
        `(${list} (function) @function)`,
        `(${list} (bind name: (_)) @function)`,
        `(${list} (signature name: (_)) @function)`,
      ]).concat("(declarations (foreign_import) @function)"),
      type: [
        // "type_synomym": sic, the grammar's spelling.
        ...["data_type", "newtype", "type_synomym", "type_family", "data_family", "type_instance", "data_instance", "kind_signature"].map(
          (t) => `(declarations (${t}) @type)`,
        ),
        // Associated types and their instances.
        ...["type_family", "data_family", "type_instance"].map((t) => `(class_declarations (${t}) @type)`),
        ...["type_instance", "data_instance"].map((t) => `(instance_declarations (${t}) @type)`),
      ],
      class: ["(declarations (class) @class)"],
      impl: ["(declarations (instance) @impl)", "(declarations (deriving_instance) @impl)"],
    },
    leading: ["comment", "haddock", "pragma"],
    // `foo :: Int -> Int` then `foo 0 = 1` and `foo n = …`: one function; `type T :: Type` then `data T`: one type.
    clauses: ["function", "type"],
    previous: previousHaskell,
    refine: refineHaskell,
  },
  {
    language: "yaml",
    grammar: "tree-sitter-yaml",
    extensions: [".yaml", ".yml"],
    units: { key: ["(stream (document (block_node (block_mapping (block_mapping_pair) @key))))"] },
    leading: COMMENTS,
    refine(node) {
      return { symbol: singleLine(node.childForFieldName("key")?.text ?? "") };
    },
  },
  {
    language: "toml",
    grammar: "tree-sitter-toml",
    extensions: [".toml"],
    units: { table: ["table", "table_array_element"], key: ["(document (pair) @key)"] },
    leading: COMMENTS,
    refine(node) {
      const key = node.namedChildren.find((c) => !!c && /key$/.test(c.type));
      return { symbol: singleLine(key?.text ?? "") };
    },
  },
];

/**
 * `.h` is shared by C and C++: a header using C++-only syntax is parsed as C++ (the C grammar
 * would see errors where classes, namespaces and templates are).
 */
const CPP_HEADER_HINT = /^\s*(class\s+\w+[^;]*\{|namespace\s+[\w:]*\s*\{|template\s*<|(public|private|protected)\s*:)/m;

export function languageForContent(spec: AstLanguage, filePath: string, content: string): AstLanguage {
  if (spec.language !== "c" || !filePath.toLowerCase().endsWith(".h") || !CPP_HEADER_HINT.test(content)) return spec;
  return AST_LANGUAGES.find((l) => l.language === "cpp") ?? spec;
}

/** HTML and the component formats built on it: elements, with <script>/<style> always separate. */
function htmlLike(language: string, extensions: string[]): AstLanguage {
  return {
    language,
    grammar: "tree-sitter-html",
    extensions,
    units: { script: ["script_element"], style: ["style_element"], element: ["element"] },
    detached: ["script", "style"],
    refine(node, kind) {
      if (kind !== "element") return { symbol: "" };
      const tag = node.namedChildren.find((c) => c?.type === "start_tag");
      const tagName = tag?.namedChildren.find((c) => c?.type === "tag_name")?.text ?? "";
      const idAttr = tag?.namedChildren.find((c) => c?.type === "attribute" && /^id\s*=/.test(c.text));
      const id = idAttr?.text.match(/=\s*["']?([^"'\s>]+)/)?.[1];
      return { symbol: id ? `${tagName}#${id}` : tagName };
    },
  };
}

/**
 * Lua functions are named by what they are stored in: `function M.greet` and
 * `M.greet = function` are `greet` (shown as `M.greet`), `function M:add` is a method.
 */
function refineLua(node: Node): Refinement | null {
  const statement = node.type === "function_definition_statement" || node.type === "local_function_definition_statement";
  const fn = statement ? node : node.namedChildren.find((c) => c?.type === "expression_list")?.childForFieldName("value");
  // The grammar's parameter_list leaves the parentheses out.
  const params = `(${singleLine(fn?.childForFieldName("parameters")?.text ?? "")})`;
  if (node.type === "local_function_definition_statement") return { params };
  const target = statement ? node.childForFieldName("name") : (node.namedChildren.find((c) => c?.type === "variable_list")?.namedChildren[0] ?? null);
  if (!target) return { symbol: "", params };
  const method = target.childForFieldName("method");
  const last = method ?? target.childForFieldName("field") ?? target.childForFieldName("name") ?? target;
  const qualified = singleLine(target.text);
  return { kind: method ? "method" : "function", symbol: singleLine(last.text), qualifiedName: qualified === last.text ? "" : qualified, params };
}

/** `typedef struct {…} Buffer;` is a struct named Buffer, not an anonymous struct. */
function refineTypedef(node: Node, kind: string): Refinement | null {
  if (node.type !== "type_definition") return null;
  const type = node.childForFieldName("type")?.type;
  const symbol = nameOf(node);
  if (type === "struct_specifier" || type === "union_specifier") return { kind: "struct", symbol };
  if (type === "enum_specifier") return { kind: "enum", symbol };
  return { kind, symbol };
}

/**
 * Haskell: functions are named by their name, their operator (`a <+> b = …`, `(<+>) :: …`) or
 * the backticked name of an infix definition (`x \`plus\` y = …`); a signature shows its type
 * in place of a parameter list; an instance is named by its head (`Show (Tree a)`).
 */
function refineHaskell(node: Node, kind: string): Refinement | null {
  switch (node.type) {
    case "signature":
      return { symbol: haskellName(node), params: ` :: ${singleLine(node.childForFieldName("type")?.text ?? "", 100)}` };
    case "function":
    case "bind":
      return { symbol: haskellName(node), params: "" };
    case "instance":
    case "deriving_instance": {
      const head = [node.childForFieldName("name")?.text, node.childForFieldName("patterns")?.text].filter(Boolean).join(" ");
      return { symbol: singleLine(head) };
    }
    case "foreign_import": {
      const signature = node.childForFieldName("signature");
      return { symbol: haskellName(signature), params: signature ? ` :: ${singleLine(signature.childForFieldName("type")?.text ?? "", 100)}` : "" };
    }
    default:
      return { kind, symbol: nameOf(node) };
  }
}

/** `foo`, `(<+>)` → `<+>`, `` `plus` `` → `plus`; an infix or parenthesised head names its operator. */
function haskellName(node: Node | null): string {
  if (!node) return "";
  const bare = (text: string) => singleLine(text).replace(/^\((.*)\)$/, "$1").replace(/^`(.*)`$/, "$1").trim();
  const name = node.childForFieldName("name");
  if (name) return bare(name.text);
  const infix = node.type === "infix" ? node : node.namedChildren.find((c) => c?.type === "infix");
  if (infix) return bare(infix.childForFieldName("operator")?.text ?? "");
  const parens = node.childForFieldName("parens") ?? (node.type === "function_head_parens" ? node.namedChildren[0] : null);
  return parens ? haskellName(parens) : "";
}

/**
 * The grammar keeps the comments above the first declaration of a module, class or instance
 * outside its declaration list (at the end of the imports, or before the list): look there.
 */
function previousHaskell(node: Node): Node | null {
  const sibling = node.previousNamedSibling;
  if (sibling) return sibling;
  const list = node.parent;
  if (!list || !/(^|_)declarations$/.test(list.type) || list.namedChildren[0]?.id !== node.id) return null;
  const before = list.previousNamedSibling;
  if (before?.type === "imports" || before?.type === "header") return before.lastNamedChild;
  return before;
}
