// The shape of one tree-sitter language table; the tables themselves are the other files here.
import type { Node } from "web-tree-sitter";

/** What a language's `refine` may say about a unit; absent fields keep the generic answer. */
export interface Refinement {
  kind?: string;
  symbol?: string;
  /** The name as shown in the context when it differs from the symbol (`Store.prototype.get`). */
  qualifiedName?: string;
  /** The parameter list, for grammars where it is not a `parameters` node (Elixir). */
  params?: string;
  /** How the unit reads in a context when its kind and name do not say it: `class << self`, `companion object` (pack.ts: declaresNoName). */
  label?: string;
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
  /**
   * The file skeleton (`get_file_skeleton`) is read from this table's units rather than the
   * skeleton's own node-type table (core/symbols/skeleton.ts), which does not know the grammar.
   */
  outlineByUnits?: boolean;
  /**
   * The text the grammar is given, when the language's files hold what it cannot read (macros
   * on lines of their own): the same length and lines, so every position stays the file's.
   */
  forParsing?: (content: string) => string;
}

/** Comment node types most grammars use; a unit takes the comments directly above it. */
export const COMMENTS = ["comment", "line_comment", "block_comment"];
