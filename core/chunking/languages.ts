// The tree-sitter languages, one table per file under `languages/`: which syntax nodes are
// chunk units and what kind each is. The tables become tree-sitter queries (ast-chunker.ts);
// everything else (nesting, context, splitting, merging) is shared. To add a language, add its
// file there and list it below.
import { bash } from "./languages/bash.js";
import { c, cpp } from "./languages/c.js";
import { csharp } from "./languages/csharp.js";
import { css } from "./languages/css.js";
import { dart } from "./languages/dart.js";
import { elisp } from "./languages/elisp.js";
import { elixir } from "./languages/elixir.js";
import { go } from "./languages/go.js";
import { haskell } from "./languages/haskell.js";
import { hcl, terraform } from "./languages/hcl.js";
import { html, svelte, vue } from "./languages/html.js";
import { java } from "./languages/java.js";
import { javascript, tsx, typescript } from "./languages/javascript.js";
import { json } from "./languages/json.js";
import { kotlin } from "./languages/kotlin.js";
import { lua } from "./languages/lua.js";
import { make } from "./languages/make.js";
import { objc } from "./languages/objc.js";
import { ocaml } from "./languages/ocaml.js";
import { php } from "./languages/php.js";
import { powershell } from "./languages/powershell.js";
import { python } from "./languages/python.js";
import { r } from "./languages/r.js";
import { rescript } from "./languages/rescript.js";
import { ruby } from "./languages/ruby.js";
import { rust } from "./languages/rust.js";
import { scala } from "./languages/scala.js";
import { solidity } from "./languages/solidity.js";
import { starlark } from "./languages/starlark.js";
import { swift } from "./languages/swift.js";
import { toml } from "./languages/toml.js";
import { xml } from "./languages/xml.js";
import { yaml } from "./languages/yaml.js";
import { zig } from "./languages/zig.js";
import type { AstLanguage } from "./languages/types.js";

export type { AstLanguage, Refinement } from "./languages/types.js";

export const AST_LANGUAGES: AstLanguage[] = [
  typescript,
  tsx,
  javascript,
  python,
  java,
  go,
  rust,
  c,
  cpp,
  csharp,
  ruby,
  kotlin,
  swift,
  json,
  xml,
  html,
  vue,
  svelte,
  css,
  php,
  scala,
  bash,
  zig,
  lua,
  elixir,
  haskell,
  yaml,
  toml,
  dart,
  objc,
  solidity,
  ocaml,
  elisp,
  rescript,
  terraform,
  hcl,
  powershell,
  starlark,
  make,
  r,
];

/**
 * `.h` is shared by C, C++ and Objective-C: a header using C++-only syntax is parsed as C++ (the
 * C grammar would see errors where classes, namespaces and templates are), one declaring
 * Objective-C classes or protocols as Objective-C.
 */
const CPP_HEADER_HINT = /^\s*(class\s+\w+[^;]*\{|namespace\s+[\w:]*\s*\{|template\s*<|(public|private|protected)\s*:)/m;
/** Objective-C's own directives at the start of a line; MATLAB and Mercury, which share `.m`, have none. */
const OBJC_HINT = /^\s*(?:@(?:interface|implementation|protocol|end)\b|#import\b)/m;

/** The grammar for a file whose extension several languages share, or null: not one with a grammar (line windows). */
export function languageForContent(spec: AstLanguage, filePath: string, content: string): AstLanguage | null {
  const path = filePath.toLowerCase();
  if (spec.language === "objc" && path.endsWith(".m")) return OBJC_HINT.test(content) ? spec : null;
  if (spec.language !== "c" || !path.endsWith(".h")) return spec;
  if (OBJC_HINT.test(content)) return objc;
  return CPP_HEADER_HINT.test(content) ? cpp : spec;
}
