import { singleLine } from "../syntax.js";
import { elixirTestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage } from "./types.js";

export const elixir: AstLanguage = {
  language: "elixir",
  grammar: "tree-sitter-elixir",
  extensions: [".ex", ".exs"],
  // Elixir declarations are macro calls: `def name(args) do … end`.
  units: {
    module: ['(call target: (identifier) @_k (#any-of? @_k "defmodule" "defprotocol" "defimpl")) @module'],
    function: ['(call target: (identifier) @_k (#any-of? @_k "def" "defp" "defmacro" "defmacrop" "defguard" "defdelegate")) @function'],
    // ExUnit: `describe "parse/1" do`, `test "adds", ctx do` (test-calls.ts).
    test: ['(call target: (identifier) @_k (#any-of? @_k "describe" "test") (arguments . (string))) @test'],
  },
  // `@doc`, `@spec` and other module attributes above a def belong to it.
  leading: [...COMMENTS, "unary_operator"],
  // The generic skeleton knows no Elixir node: its declarations are calls.
  outlineByUnits: true,
  refine(node, kind) {
    if (kind === "test") {
      return testRefinement(elixirTestCall(node));
    }
    const args = node.namedChildren.find((c) => c?.type === "arguments");
    const head = args?.namedChildren[0];
    if (!head) return { symbol: "" };
    // `defimpl Inspect, for: Plug.Conn` implements a protocol for a type, as Rust's `impl Trait for Type`.
    const implementedFor = node.childForFieldName("target")?.text === "defimpl" ? /\bfor:\s*([\w.]+)/.exec(args!.text) : null;
    if (implementedFor) return { kind: "impl", symbol: `${singleLine(head.text)} for ${implementedFor[1]}` };
    // `def add(cart, item)` is a call node; `def total(items) when …` wraps it in a binary operator.
    const call = head.type === "binary_operator" ? head.childForFieldName("left") : head;
    if (call?.type === "call") {
      const args = call.namedChildren.find((c) => c?.type === "arguments");
      return { symbol: call.childForFieldName("target")?.text ?? "", params: singleLine(args?.text ?? "") };
    }
    return { symbol: singleLine(head.text) };
  },
};
