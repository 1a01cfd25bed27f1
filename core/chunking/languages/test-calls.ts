// Tests written as calls with a title and a body: Jest, Vitest, Mocha, Jasmine and Playwright
// (`describe("Parser", () => …)`, `it.each(rows)("adds %i", …)`), RSpec and spec-style
// Minitest (`describe Parser do … end`, `it "parses" do … end`), ExUnit (`test "adds" do`),
// Dart's and Flutter's (`group('Parser', () {…})`, `testWidgets(…)`), Pester (`Describe "…" {}`),
// busted's for Lua and Neovim plugins (`describe("util", function() … end)`), Pest's for PHP
// (`it('can be created', function () {…})`), Go's subtests (`t.Run("empty input", func…)`),
// the block-taking suites of Scala (munit, ScalaTest: `test("decodes") {…}`), Kotlin
// (Kotest: `describe("parse") {…}`) and Swift (Quick: `it("returns nothing") {…}`), and
// GoogleTest's, Boost.Test's, Catch2's and doctest's macros in C++ (`TEST(Parser, EmptyInput)
// {…}`, `TEST_CASE("parses empty input") {…}`).
// Each is a unit, a suite holding its tests, named by its title: a long test file is cut test
// by test, and its outline reads as the tests it holds. A title is a sentence, not a declared
// name (`TITLED_KINDS`): ranking and the keyword index do not take it for a declaration.
import { singleLine } from "../syntax.js";
import type { Refinement } from "./types.js";

/** The slice of a syntax node these readers use: a tree-sitter node, or the skeleton's view of one. */
interface SyntaxNodeLike {
  readonly type: string;
  readonly text: string;
  readonly namedChildren: ReadonlyArray<SyntaxNodeLike | null>;
  childForFieldName(name: string): SyntaxNodeLike | null;
}

/** Chunk kinds named by a title rather than a declared name. */
export const TITLED_KINDS: ReadonlySet<string> = new Set(["suite", "test"]);

// Focus and skip prefixes (`fdescribe`, `xit`) and modifiers (`describe.only`, `test.each`).
const MODIFIERS = "(?:[.](?:only|skip|todo|concurrent|sequential|shuffle|each|skipIf|runIf|fails|failing|serial|parallel|fixme|slow))*";
/** A suite's callee (`describe`, `context`, `RSpec.describe`, Playwright's `test.describe`), as a RegExp source without backslashes, so a tree-sitter query can hold it as written. */
export const SUITE_CALLEE = `^(?:RSpec[.]|test[.])?[fx]?(?:describe|context|suite|feature|shared_examples|shared_examples_for|shared_context)${MODIFIERS}$`;
/** A test's callee (`it`, `test`, `specify`, `xit`, `it.each`). */
export const TEST_CALLEE = `^(?:[fx]?(?:it|test|specify|example|scenario)|testWidgets)${MODIFIERS}$`;
/** Dart's suite (`group('Parser', () {…})`); its tests are `test` and Flutter's `testWidgets`. */
export const DART_GROUP = "group";
/** Pester's commands, in the case they are written in (PowerShell's names ignore case). */
export const PESTER_CALLEE = "^(?:[Dd]escribe|[Cc]ontext|[Ii]t)$";

const SUITE = new RegExp(SUITE_CALLEE);
/** What a Ruby suite describes: a string, a class or module (`describe Parser do`), a method (`describe :assoc do`). */
export const RUBY_SUITE_SUBJECTS: readonly string[] = ["string", "constant", "scope_resolution", "simple_symbol"];
/** The function a JavaScript test or suite runs (`() => …`, `function () {…}`). */
export const JS_TEST_BODIES: readonly string[] = ["arrow_function", "function_expression"];
const TEST = new RegExp(TEST_CALLEE);

export interface TestCall {
  kind: "suite" | "test";
  /** The title as a plain string (`parses empty input`); a non-string title as written (`Parser`). */
  title: string;
  /** The title as written (`"parses empty input"`), for the chunk's context. */
  written: string;
}

/** What `callee` (its text) calls, or null when it is no test function. */
export function testKindOf(callee: string): TestCall["kind"] | null {
  return SUITE.test(callee) ? "suite" : TEST.test(callee) ? "test" : null;
}

/** A JavaScript or TypeScript statement `describe(title, fn)`, `it.each(rows)(title, fn)`, as a test unit. */
export function jsTestCall(statement: SyntaxNodeLike): TestCall | null {
  const call = statement.type === "expression_statement" ? statement.namedChildren[0] : null;
  if (call?.type !== "call_expression") return null;
  let callee = call.childForFieldName("function");
  // `it.each(rows)(title, fn)`: the callee is itself a call.
  if (callee?.type === "call_expression") callee = callee.childForFieldName("function");
  if (!callee || (callee.type !== "identifier" && callee.type !== "member_expression")) return null;
  const kind = testKindOf(callee.text);
  const args = children(call.childForFieldName("arguments"));
  if (!kind || args.length < 2 || !args.slice(1).some((a) => JS_TEST_BODIES.includes(a.type))) return null;
  return titled(kind, args[0]);
}

/** A Ruby call `describe Parser do … end`, `it "parses" do … end` with its block, as a test unit. */
export function rubyTestCall(call: SyntaxNodeLike): TestCall | null {
  if (call.type !== "call" || !call.childForFieldName("block")) return null;
  const kind = testKindOf(call.childForFieldName("method")?.text ?? "");
  const first = children(call.childForFieldName("arguments"))[0];
  if (!kind || !first || !(kind === "test" ? first.type === "string" : RUBY_SUITE_SUBJECTS.includes(first.type))) return null;
  return titled(kind, first);
}

/** A Dart statement `group('Parser', () {…})`, `test(…)`, `testWidgets(…)`: a name, then a selector holding the arguments. */
export function dartTestCall(statement: SyntaxNodeLike): TestCall | null {
  const [callee, selector] = statement.type === "expression_statement" ? children(statement) : [];
  if (callee?.type !== "identifier" || selector?.type !== "selector") return null;
  const kind = callee.text === DART_GROUP ? "suite" : testKindOf(callee.text);
  const args = children(children(children(selector).find((c) => c.type === "argument_part") ?? null).find((c) => c.type === "arguments") ?? null);
  const title = args[0] && children(args[0])[0];
  if (!kind || title?.type !== "string_literal" || !args.slice(1).some((a) => children(a)[0]?.type === "function_expression")) return null;
  return titled(kind, title);
}

/** A Pester `Describe "Get-Thing" { … }`, `It 'returns x' { … }` pipeline, as a test unit. */
export function pesterTestCall(pipeline: SyntaxNodeLike): TestCall | null {
  const command = pipeline.type === "pipeline" ? children(children(pipeline)[0] ?? null)[0] : null;
  const name = command?.type === "command" ? children(command).find((c) => c.type === "command_name")?.text.toLowerCase() : undefined;
  const kind = name === "describe" || name === "context" ? "suite" : name === "it" ? "test" : null;
  const title = children(children(command ?? null).find((c) => c.type === "command_elements") ?? null).find((c) => c.type === "array_literal_expression");
  return kind && title ? titled(kind, title) : null;
}

/** An ExUnit `describe "parse/1" do` or `test "adds", ctx do`, as a test unit. */
export function elixirTestCall(call: SyntaxNodeLike): TestCall | null {
  const callee = call.type === "call" ? call.childForFieldName("target")?.text : undefined;
  const kind = callee === "describe" ? "suite" : callee === "test" ? "test" : null;
  const first = children(children(call).find((c) => c.type === "arguments") ?? null)[0];
  return kind && first?.type === "string" ? titled(kind, first) : null;
}

/** A Lua call `describe("util", function() … end)`, `it(…)` (busted, plenary.nvim), as a test unit. */
export function luaTestCall(call: SyntaxNodeLike): TestCall | null {
  const kind = call.type === "call" ? testKindOf(call.childForFieldName("function")?.text ?? "") : null;
  const [title, body] = children(children(call.childForFieldName("arguments"))[0] ?? null);
  return kind && title?.type === "string" && body?.type === "function_definition" ? titled(kind, title) : null;
}

/** A PHP call `describe('users', function () {…})`, `it(…)`, `test(…)->throws(…)` (Pest), as a test unit. */
export function phpTestCall(call: SyntaxNodeLike): TestCall | null {
  const kind = call.type === "function_call_expression" ? testKindOf(call.childForFieldName("function")?.text ?? "") : null;
  const [title, body] = children(call.childForFieldName("arguments")).map((a) => children(a)[0]);
  const isFunction = body?.type === "anonymous_function_creation_expression" || body?.type === "arrow_function";
  return kind && (title?.type === "string" || title?.type === "encapsed_string") && isFunction ? titled(kind, title) : null;
}

/** A Go subtest `t.Run("empty input", func(t *testing.T) {…})` with a literal name, as a test unit. */
export function goSubtestCall(statement: SyntaxNodeLike): TestCall | null {
  const call = statement.type === "expression_statement" ? children(statement)[0] : null;
  const callee = call?.type === "call_expression" ? call.childForFieldName("function") : null;
  if (callee?.type !== "selector_expression" || callee.childForFieldName("field")?.text !== "Run") return null;
  const [title, body] = children(call!.childForFieldName("arguments"));
  const literal = title?.type === "interpreted_string_literal" || title?.type === "raw_string_literal";
  return literal && body?.type === "func_literal" ? titled("test", title) : null;
}

/** A Scala call `test("decodes an int") {…}`, `describe(…) {…}`, `it(…) {…}`, as a test unit. */
export function scalaTestCall(call: SyntaxNodeLike): TestCall | null {
  const kind = call.type === "call_expression" && call.childForFieldName("body")?.type === "block" ? testKindOf(call.childForFieldName("function")?.text ?? "") : null;
  const args = children(call.childForFieldName("arguments"));
  return kind && args.length === 1 && args[0].type === "string" ? titled(kind, args[0]) : null;
}

/**
 * A Kotlin or Swift call with a title and a trailing lambda (`describe("parse") {…}`,
 * `it("returns nothing") {…}`) as a test unit. Kotlin's grammar nests the titled call inside
 * the call the lambda completes; Swift's keeps both in one call suffix.
 */
export function trailingLambdaTestCall(call: SyntaxNodeLike): TestCall | null {
  if (call.type !== "call_expression") return null;
  const [head, suffix] = children(call);
  const inner = head?.type === "call_expression" ? children(head) : null;
  const callee = inner ? inner[0] : head;
  const titleSuffix = inner ? inner[1] : suffix;
  const kind = callee?.type === "simple_identifier" ? testKindOf(callee.text) : null;
  const args = children(children(titleSuffix ?? null).find((c) => c.type === "value_arguments") ?? null);
  const title = args.length === 1 ? children(args[0])[0] : undefined;
  const lambda = children(suffix ?? null).some((c) => c.type === "annotated_lambda" || c.type === "lambda_literal");
  const isString = title?.type === "string_literal" || title?.type === "line_string_literal";
  return kind && isString && lambda ? titled(kind, title!) : null;
}

/** GoogleTest's test macros (`TEST(Suite, Name)`, `TEST_F`, …) and Boost.Test's `BOOST_AUTO_TEST_CASE(name)`. */
const CPP_TEST_MACROS: Record<string, number> = { TEST: 2, TEST_F: 2, TEST_P: 2, TYPED_TEST: 2, TYPED_TEST_P: 2, BOOST_AUTO_TEST_CASE: 1 };

/**
 * A C++ test macro with its body, which the grammar reads as a function definition
 * (`TEST(ParserTest, EmptyInput) {…}`: a function `TEST` taking two types), as a test unit
 * named as GoogleTest reports it: `ParserTest.EmptyInput`.
 */
export function cppTestMacro(definition: SyntaxNodeLike): TestCall | null {
  const declarator = definition.type === "function_definition" ? definition.childForFieldName("declarator") : null;
  const macro = declarator?.type === "function_declarator" ? declarator.childForFieldName("declarator")?.text ?? "" : "";
  if (!Object.hasOwn(CPP_TEST_MACROS, macro)) return null;
  const names = children(declarator!.childForFieldName("parameters")).map((p) => p.text);
  if (names.length !== CPP_TEST_MACROS[macro] || !names.every((n) => /^\w+$/.test(n))) return null;
  const title = names.join(".");
  return { kind: "test", title, written: title };
}

/** Catch2's and doctest's test macros taking a title; doctest's `TEST_SUITE` groups them. */
export const TITLED_CPP_TEST_MACROS = "^(?:TEST_CASE|TEST_CASE_METHOD|TEST_CASE_FIXTURE|TEMPLATE_TEST_CASE|SCENARIO|TEST_SUITE)$";
const TITLED_CPP_TEST = new RegExp(TITLED_CPP_TEST_MACROS);

/**
 * The body of a Catch2 or doctest test (`TEST_CASE("parses empty input", "[parser]") {…}`), as
 * a test unit named by its title. The grammar reads the macro as a call missing its `;` and
 * the body as a block of its own: `previous`, the body's previous named sibling, is the call.
 */
export function titledCppTestBody(body: SyntaxNodeLike, previous: SyntaxNodeLike | null): TestCall | null {
  if (body.type !== "compound_statement" || previous?.type !== "expression_statement") return null;
  const call = children(previous)[0];
  const macro = call?.type === "call_expression" ? call.childForFieldName("function")?.text ?? "" : "";
  if (!TITLED_CPP_TEST.test(macro)) return null;
  const title = children(call.childForFieldName("arguments")).find((a) => a.type === "string_literal");
  return title ? titled(macro === "TEST_SUITE" ? "suite" : "test", title) : null;
}

/**
 * The test call `node` is, in whichever of these grammars it comes from, for the generic
 * skeleton (which walks every grammar's tree without knowing which one it is); `previous`, the
 * node's previous named sibling, for tests whose title the grammar puts there (Catch2's).
 */
export function testCallOf(node: SyntaxNodeLike, previous: SyntaxNodeLike | null = null): TestCall | null {
  switch (node.type) {
    case "expression_statement":
      return jsTestCall(node) ?? goSubtestCall(node);
    case "call":
      return rubyTestCall(node) ?? luaTestCall(node);
    case "function_call_expression":
      return phpTestCall(node);
    case "call_expression":
      return scalaTestCall(node) ?? trailingLambdaTestCall(node);
    case "function_definition":
      return cppTestMacro(node);
    case "compound_statement":
      return titledCppTestBody(node, previous);
    default:
      return null;
  }
}

/** A language table's refinement of a test unit, from what its reader found. */
export function testRefinement(test: TestCall | null): Refinement | null {
  return test && { kind: test.kind, symbol: test.title, qualifiedName: test.written };
}

function titled(kind: TestCall["kind"], title: SyntaxNodeLike): TestCall {
  // The context's separators (` > ` between levels, `; ` between packed members) stay out of it.
  const written = singleLine(title.text).replaceAll(" > ", " >").replaceAll("; ", ";");
  const quoted = /^(["'`])([^]*)\1$/.exec(written);
  return { kind, title: quoted ? quoted[2] : written, written };
}

function children(node: SyntaxNodeLike | null): SyntaxNodeLike[] {
  return node ? node.namedChildren.filter((c): c is SyntaxNodeLike => c !== null) : [];
}
