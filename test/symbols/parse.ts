// Parses a snippet with the real tree-sitter grammars that ship with the package.
import { Language, Parser } from "web-tree-sitter";
import { join } from "node:path";
import type { SyntaxNodeLike } from "../../core/symbols/index.js";

const grammars: Record<string, string> = {
  typescript: "node_modules/tree-sitter-wasms/out/tree-sitter-typescript.wasm",
  javascript: "node_modules/tree-sitter-wasms/out/tree-sitter-javascript.wasm",
  python: "node_modules/tree-sitter-wasms/out/tree-sitter-python.wasm",
  go: "node_modules/tree-sitter-wasms/out/tree-sitter-go.wasm",
  rust: "node_modules/tree-sitter-wasms/out/tree-sitter-rust.wasm",
  c: "node_modules/tree-sitter-wasms/out/tree-sitter-c.wasm",
  css: "node_modules/tree-sitter-wasms/out/tree-sitter-css.wasm",
  ruby: "node_modules/tree-sitter-wasms/out/tree-sitter-ruby.wasm",
  java: "node_modules/tree-sitter-wasms/out/tree-sitter-java.wasm",
  elisp: "node_modules/tree-sitter-wasms/out/tree-sitter-elisp.wasm",
  elixir: "node_modules/tree-sitter-wasms/out/tree-sitter-elixir.wasm",
  markdown: "node_modules/@kerebron/wasm/assets/tree-sitter-markdown/tree-sitter-markdown.wasm",
};

let ready: Promise<void> | null = null;
const languages = new Map<string, Language>();

export async function parse(language: string, source: string): Promise<SyntaxNodeLike> {
  ready ??= Parser.init();
  await ready;
  let lang = languages.get(language);
  if (!lang) {
    lang = await Language.load(join(process.cwd(), grammars[language]));
    languages.set(language, lang);
  }
  const parser = new Parser();
  parser.setLanguage(lang);
  const tree = parser.parse(source);
  if (!tree) throw new Error(`cannot parse ${language}`);
  return tree.rootNode as unknown as SyntaxNodeLike;
}
