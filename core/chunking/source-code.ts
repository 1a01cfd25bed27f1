// Which files are source code by their name: the extensions of the programming languages the
// chunker has a grammar for, read from the grammars' tables, less its data and markup formats
// (JSON, YAML, TOML, XML, HTML, CSS). The tables are plain data: reading them loads neither
// tree-sitter nor the chunkers, so a one-off query's bundle (the status reader walks) may.
import { AST_LANGUAGES } from "./languages.js";

const DATA_AND_MARKUP = new Set(["json", "yaml", "toml", "xml", "html", "css"]);

export const SOURCE_CODE_EXTENSIONS: ReadonlySet<string> = new Set(
  AST_LANGUAGES.filter((l) => !DATA_AND_MARKUP.has(l.language)).flatMap((l) => l.extensions),
);

/** Whether a path names source code in a programming language, by its extension alone. */
export function isSourceCodePath(filePath: string): boolean {
  const slash = filePath.lastIndexOf("/");
  const dot = filePath.lastIndexOf(".");
  return dot > slash + 1 && SOURCE_CODE_EXTENSIONS.has(filePath.slice(dot).toLowerCase());
}
