import type { Node } from "web-tree-sitter";
import { paramsOf } from "../syntax.js";
import { DART_GROUP, SUITE_CALLEE, TEST_CALLEE, dartTestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage, type Refinement } from "./types.js";

/** Signatures whose body the grammar keeps as the next sibling (`function_body`). */
const SIGNATURES = ["function_signature", "method_signature", "getter_signature", "setter_signature"];
const CONSTRUCTORS = new Set(["constructor_signature", "factory_constructor_signature", "constant_constructor_signature", "redirecting_factory_constructor_signature"]);

/**
 * Dart. The grammar writes a function as two siblings, its signature then its `function_body`
 * (in a class body too: `method_signature`, `function_body`), so the unit is the body and the
 * signature, annotations and doc comment before it are its leading lines; its name, kind and
 * parameters come from that signature.
 */
export const dart: AstLanguage = {
  language: "dart",
  grammar: "tree-sitter-dart",
  extensions: [".dart"],
  units: {
    class: ["class_definition"],
    trait: ["mixin_declaration"],
    extension: ["extension_declaration"],
    enum: ["enum_declaration"],
    type: ["type_alias"],
    function: ["function_body"],
    // `group('Parser', () {…})`, `test(…)`, Flutter's `testWidgets(…)` (test-calls.ts).
    test: [`(expression_statement (identifier) @_f (#match? @_f "^${DART_GROUP}$|${SUITE_CALLEE}|${TEST_CALLEE}") . (selector (argument_part (arguments . (argument (string_literal)) (argument (function_expression)))))) @test`],
  },
  outlineByUnits: true,
  leading: [...COMMENTS, "documentation_comment", "annotation", ...SIGNATURES],
  refine(node, kind) {
    if (kind === "test") {
      return testRefinement(dartTestCall(node));
    }
    if (node.type !== "function_body") return null;
    return signatureOf(node.previousNamedSibling) ?? { kind };
  },
};

/** Name, kind and parameters of the signature a body follows (`method_signature` wraps the real one). */
function signatureOf(node: Node | null): Refinement | null {
  const signature = node?.type === "method_signature" ? node.namedChildren[0] : node;
  if (!signature || !(SIGNATURES.includes(signature.type) || CONSTRUCTORS.has(signature.type) || signature.type === "operator_signature")) return null;
  const names = signature.namedChildren.filter((c): c is Node => c?.type === "identifier").map((c) => c.text);
  const params = paramsOf(signature);
  if (CONSTRUCTORS.has(signature.type)) return { kind: "constructor", symbol: names.join("."), params };
  if (signature.type === "operator_signature") {
    const op = signature.namedChildren.find((c) => c && /operator$/.test(c.type));
    return { kind: "function", symbol: `operator ${op?.text ?? ""}`.trim(), params };
  }
  return { kind: "function", symbol: names[0] ?? "", params };
}
