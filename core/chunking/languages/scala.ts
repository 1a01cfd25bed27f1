import { SUITE_CALLEE, TEST_CALLEE, scalaTestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage } from "./types.js";

/**
 * An anonymous instance with a body, `new Decoder[B] {` or `new Decoder {`: the grammar reads
 * one only with an argument list (`new Decoder() {`), and its error recovery closed the
 * enclosing trait or object at the instance, so every member after it (most of circe's
 * `Decoder`) lost its parent. For the parse, `()` takes the place of the type arguments, or of
 * the last two letters of the type's name (no name is read from an instance).
 */
const NEW_WITH_BODY = /(\bnew\s+)([\p{L}_][\p{L}\p{N}_.]*)(\[(?:[^\[\]\n]|\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\])*\])?(?=\s*\{)/gu;

function withArgumentLists(content: string): string {
  return content.replace(NEW_WITH_BODY, (whole: string, head: string, name: string, args: string | undefined) => {
    if (args) return head + name + "()" + " ".repeat(args.length - 2);
    return name.length >= 3 ? head + name.slice(0, -2) + "()" : whole;
  });
}

export const scala: AstLanguage = {
  language: "scala",
  grammar: "tree-sitter-scala",
  extensions: [".scala", ".sc"],
  units: {
    class: ["class_definition"],
    object: ["object_definition"],
    trait: ["trait_definition"],
    function: ["function_definition"],
    // munit and ScalaTest: `test("decodes an int") {…}`, `describe(…) {…}` (test-calls.ts).
    test: [`(call_expression function: (identifier) @_f (#match? @_f "${SUITE_CALLEE}|${TEST_CALLEE}") arguments: (arguments . (string) .) body: (block)) @test`],
  },
  leading: [...COMMENTS, "annotation"],
  refine: (node, kind) => (kind === "test" ? testRefinement(scalaTestCall(node)) : null),
  forParsing: (content) => (content.includes("new ") ? withArgumentLists(content) : content),
};
