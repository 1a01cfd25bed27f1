// Starlark (Bazel's `BUILD` and `.bzl` files, Buck's, Tilt's), read with the Python grammar: its
// syntax is a subset of Python's. A build file's targets are the top-level calls that take a
// `name` (`go_library(name = "server", …)`), named by it and shown with their rule
// (`target go_library server`); `.bzl` files' `def`s are functions. `load()`, `package()` and
// the like take no name and stay between the units.
import type { Node } from "web-tree-sitter";
import { python } from "./python.js";
import { COMMENTS, type AstLanguage, type Refinement } from "./types.js";

export const starlark: AstLanguage = {
  language: "starlark",
  grammar: python.grammar,
  extensions: [".bzl", ".bazel", ".star"],
  units: {
    function: ["function_definition"],
    target: ['(module (expression_statement (call arguments: (argument_list (keyword_argument name: (identifier) @_k (#eq? @_k "name")))) @target))'],
  },
  // A target's call is its statement's; the comments above the statement are the target's.
  wrappers: ["expression_statement", "decorated_definition"],
  leading: COMMENTS,
  outlineByUnits: true,
  refine(node): Refinement | null {
    if (node.type !== "call") return null;
    const rule = node.childForFieldName("function")?.text ?? "";
    const name = node.childForFieldName("arguments")?.namedChildren.find((a): a is Node => a?.type === "keyword_argument" && a.childForFieldName("name")?.text === "name");
    const value = name?.childForFieldName("value");
    // `name = "server"`; a macro's `name = name + "_lib"` keeps its expression.
    const symbol = value?.type === "string" ? value.text.replace(/^[rbuf]*("""|'''|"|')|("""|'''|"|')$/g, "") : (value?.text ?? "");
    return { symbol, qualifiedName: `${rule} ${symbol}` };
  },
};
