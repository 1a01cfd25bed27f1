// Which files are source code by their name: the extensions of the programming languages the
// chunker has a grammar for (not its data and markup formats: JSON, YAML, TOML, XML, HTML,
// CSS). Kept apart from the grammars' tables so that the walk and the file tools, which a
// one-off query's bundle holds too (the status reader walks), tell source code without the
// chunkers' code; a test holds the list to the tables (test/indexing/large-source.test.ts).

export const SOURCE_CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  ".sh", ".bash", ".zsh",
  ".c", ".h",
  ".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".inl",
  ".cs", ".csx",
  ".ex", ".exs",
  ".go",
  ".hs", ".hs-boot",
  ".java",
  ".ts", ".mts", ".cts", ".tsx",
  ".js", ".mjs", ".cjs", ".jsx",
  ".kt", ".kts",
  ".lua",
  ".php", ".phtml",
  ".py", ".pyi", ".pyw",
  ".rb", ".rake", ".gemspec", ".ru",
  ".rs",
  ".scala", ".sc",
  ".swift",
  ".vue", ".svelte",
  ".zig",
]);

/** Whether a path names source code in a programming language, by its extension alone. */
export function isSourceCodePath(filePath: string): boolean {
  const slash = filePath.lastIndexOf("/");
  const dot = filePath.lastIndexOf(".");
  return dot > slash + 1 && SOURCE_CODE_EXTENSIONS.has(filePath.slice(dot).toLowerCase());
}
