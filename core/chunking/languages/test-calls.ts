// Tests written as calls with a title and a body: Jest, Vitest, Mocha, Jasmine and Playwright
// (`describe("Parser", () => …)`, `it.each(rows)("adds %i", …)`), RSpec and spec-style
// Minitest (`describe Parser do … end`, `it "parses" do … end`), ExUnit (`test "adds" do`),
// Dart's and Flutter's (`group('Parser', () {…})`, `testWidgets(…)`), Pester (`Describe "…" {}`).
// Each is a unit, a suite holding its tests, named by its title: a long test file is cut test
// by test, and its outline reads as the tests it holds. A title is a sentence, not a declared
// name (`TITLED_KINDS`): ranking and the keyword index do not take it for a declaration.
import type { SyntaxNodeLike } from "../../symbols/syntax-node.js";
import { singleLine } from "../syntax.js";
import type { Refinement } from "./types.js";

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
const RUBY_SUITE_SUBJECTS = new Set(["string", "constant", "scope_resolution", "simple_symbol"]);
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
  if (!kind || args.length < 2 || !args.slice(1).some((a) => a.type === "arrow_function" || a.type === "function_expression")) return null;
  return titled(kind, args[0]);
}

/** A Ruby call `describe Parser do … end`, `it "parses" do … end` with its block, as a test unit. */
export function rubyTestCall(call: SyntaxNodeLike): TestCall | null {
  if (call.type !== "call" || !call.childForFieldName("block")) return null;
  const kind = testKindOf(call.childForFieldName("method")?.text ?? "");
  const first = children(call.childForFieldName("arguments"))[0];
  if (!kind || !first || !(kind === "test" ? first.type === "string" : RUBY_SUITE_SUBJECTS.has(first.type))) return null;
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
