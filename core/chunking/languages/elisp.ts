// Emacs Lisp (`.el`): `defun`, `defsubst` and `defmacro` have nodes of their own; every other
// definition is a list whose head names the form (`cl-defun`, `defcustom`, `define-minor-mode`,
// Transient's commands), and `defvar`/`defconst` are special forms. Each is named by the symbol
// after its head. `;;;` section comments and `;;;###autoload` cookies directly above belong to it.
import type { Node } from "web-tree-sitter";
import { singleLine } from "../syntax.js";
import type { AstLanguage, Refinement } from "./types.js";

/** Heads of the list forms that define something, by the kind of what they define. */
const LIST_FORMS: Record<string, string[]> = {
  function: [
    "cl-defun",
    "cl-defmacro",
    "cl-defsubst",
    "define-inline",
    "define-derived-mode",
    "define-minor-mode",
    "define-globalized-minor-mode",
    "define-generic-mode",
    "transient-define-prefix",
    "transient-define-suffix",
    "transient-define-infix",
    "transient-define-argument",
  ],
  method: ["cl-defmethod", "cl-defgeneric"],
  variable: ["defcustom", "defface", "defvar-local", "defvar-keymap", "defgroup", "defimage"],
  struct: ["cl-defstruct"],
  class: ["defclass"],
};

/** A list form of `kind`: a list whose first element is one of its heads. */
function listForm(kind: string): string {
  return `((list . (symbol) @_head) @${kind} (#any-of? @_head ${LIST_FORMS[kind].map((h) => JSON.stringify(h)).join(" ")}))`;
}

export const elisp: AstLanguage = {
  language: "elisp",
  grammar: "tree-sitter-elisp",
  extensions: [".el"],
  units: {
    function: ["function_definition", listForm("function")],
    macro: ["macro_definition"],
    method: [listForm("method")],
    variable: ['(special_form . "defvar") @variable', '(special_form . "defconst") @variable', listForm("variable")],
    struct: [listForm("struct")],
    class: [listForm("class")],
  },
  leading: ["comment"],
  outlineByUnits: true,
  refine(node, kind): Refinement | null {
    // `defun` and `defmacro` name their name and parameters.
    if (node.type === "function_definition" || node.type === "macro_definition") return null;
    // The name follows the head: `(cl-defun name …)`, `(defvar name …)`; a struct with options
    // is named by its list's head: `(cl-defstruct (point (:constructor make-point)) …)`.
    const named = node.namedChildren.filter((c): c is Node => c !== null);
    const after = node.type === "special_form" ? named[0] : named[1];
    const symbol = after?.type === "list" ? after.namedChildren.find((c) => c?.type === "symbol")?.text : after?.type === "symbol" ? after.text : undefined;
    const takes = (kind === "function" || kind === "method") && named[2]?.type === "list";
    return { symbol: symbol ?? "", params: takes ? singleLine(named[2].text) : "" };
  },
};
