// What the plugin needs from the core, as one seam: index.ts wires the real core, unit tests
// may hand in an engine of their own.
import type { Engine, OpenEngineOptions } from "../core/engine-types.js";
import type { OutlineItem, SyntaxNodeLike } from "../core/symbols/index.js";

export interface ParsedSource {
  language: string;
  root: SyntaxNodeLike;
  /** The file's outline where the chunker's units give it (a grammar the skeleton's node-type table does not know), read when asked for. */
  outline?: () => Promise<OutlineItem[]>;
}

export interface CoreDeps {
  openEngine(options: OpenEngineOptions): Promise<Engine>;
  /** Parses a file with its tree-sitter grammar; null when no grammar covers it. */
  parseSource(filePath: string, content: string): Promise<ParsedSource | null>;
  /** Language name for a path (as the index records it), or null; given the text, the file's own (core/chunking languageForPath). */
  languageForPath(filePath: string, content?: string): string | null;
}
