// Which files are documents (prose) by their name alone: Markdown and the plain-text formats.
// The one list for the chunkers that cut them (registry.ts, fallback.ts) and for the search,
// which tells documents from code before it has read a candidate's record. Portable.

/** Markdown, and a Markdown page that a build fills in (a man page's `.md.in` source). */
export const MARKDOWN_EXTENSIONS = [".md", ".markdown", ".mdx", ".mdown", ".mkd", ".md.in", ".markdown.in"];

/**
 * Plain-text documents (reStructuredText, AsciiDoc, Org, text files): no chunker of their own,
 * their line windows are prose. CMake's `CMakeLists.txt` is code in a `.txt`.
 */
const PLAIN_TEXT_EXTENSIONS = [".rst", ".txt", ".text", ".adoc", ".asciidoc", ".org", ".rdoc", ".pod", ".textile"];

/** A plain-text document by its name, or the same as a build's `.in` template. */
export function isPlainTextDocumentPath(filePath: string): boolean {
  const lower = filePath.toLowerCase().replace(/\.in$/, "");
  if (lower === "cmakelists.txt" || lower.endsWith("/cmakelists.txt")) return false;
  return PLAIN_TEXT_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** A Markdown or plain-text document by its name (a troff man page is known by its text only). */
export function isDocumentPath(filePath: string): boolean {
  const lower = filePath.toLowerCase();
  return MARKDOWN_EXTENSIONS.some((ext) => lower.endsWith(ext)) || isPlainTextDocumentPath(filePath);
}
