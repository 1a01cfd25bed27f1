import { RUBY_SUITE_SUBJECTS, SUITE_CALLEE, TEST_CALLEE, rubyTestCall, testRefinement } from "./test-calls.js";
import { COMMENTS, type AstLanguage } from "./types.js";
import { previousAcrossList } from "./first-statement.js";
import { SINGLETON_CLASS_PREFIX } from "../pack.js";

export const ruby: AstLanguage = {
  language: "ruby",
  grammar: "tree-sitter-ruby",
  extensions: [".rb", ".rake", ".gemspec", ".ru"],
  units: {
    function: ["method"],
    method: ["singleton_method"],
    class: ["class", "singleton_class"],
    module: ["module"],
    // RSpec and spec-style Minitest: `describe Parser do`, `it "parses" do` (test-calls.ts).
    // A suite describes a string, a class or module, or a method (`describe :assoc`); a test
    // needs its title (`it { is_expected.to … }` names nothing).
    test: [
      `(call method: (identifier) @_f (#match? @_f "${SUITE_CALLEE}") arguments: (argument_list . [${RUBY_SUITE_SUBJECTS.map((t) => `(${t})`).join(" ")}]) block: (_)) @test`,
      `(call method: (identifier) @_f (#match? @_f "${TEST_CALLEE}") arguments: (argument_list . (string)) block: (_)) @test`,
    ],
  },
  leading: COMMENTS,
  // The comments above a module's or class's first statement are the module's children, not
  // its `body_statement`'s: a class's doc comment there still belongs to the class.
  previous: previousAcrossList("body_statement", ["module", "class", "singleton_class"]),
  refine(node, kind) {
    if (kind === "test") return testRefinement(rubyTestCall(node));
    // `class << self` holds a class's own methods: named as written, not as a bare "class".
    if (node.type === "singleton_class") return { label: SINGLETON_CLASS_PREFIX + (node.childForFieldName("value")?.text ?? "self") };
    return null;
  },
};
