// Makefiles: each rule is a `target` named by what it builds (`build`, `$(BIN)`), with the
// comments above it (`## Builds the server.`); `define` blocks are `variable`s. Special targets
// (`.PHONY`, `.DEFAULT_GOAL`) and plain assignments stay between the units. The grammar is
// vendored (grammars/make/).
import { singleLine } from "../syntax.js";
import type { AstLanguage, Refinement } from "./types.js";

export const make: AstLanguage = {
  language: "make",
  grammar: "tree-sitter-make",
  extensions: [".mk", ".mak"],
  units: {
    target: ['((rule (targets) @_targets) @target (#not-match? @_targets "^[.][A-Z_]+$"))'],
    variable: ["define_directive"],
  },
  leading: ["comment"],
  outlineByUnits: true,
  refine(node): Refinement | null {
    const names = node.type === "rule" ? node.namedChildren.find((c) => c?.type === "targets") : node.childForFieldName("name");
    return { symbol: singleLine(names?.text ?? "") };
  },
};
