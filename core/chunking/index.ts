// Public surface of chunking: file in, chunks out. Everything here is free of Node built-ins
// (grammar files are read through the pluggable grammar source), so it also builds for browsers.
import type { Tree } from "web-tree-sitter";
import { DEFAULT_CONFIG, type RagConfig } from "../config/defaults.js";
import type { Chunk } from "../types.js";
import { ChunkingConfigError, chunkWithSyntax, outlineOfUnits, parseAs, type UnitOutline } from "./ast-chunker.js";
import { normaliseChunks } from "./custom-chunkers.js";
import { chunkByLines } from "./fallback.js";
import { chunkLatex } from "./latex.js";
import { chunkMarkdown } from "./markdown.js";
import { languageForContent } from "./languages.js";
import { chunkPdf } from "./pdf.js";
import { chunkRazor } from "./razor.js";
import { handlerFor, handlerForFile, handlerForScript, type Handler } from "./registry.js";
import { chunkSolution } from "./sln.js";
import { chunkSql } from "./sql.js";
import type { Limits } from "./line-index.js";
import { decodeFileText } from "../files/binary.js";
import { oneLine } from "../error-line.js";

export type ChunkingOptions = RagConfig["chunking"];

/**
 * Bumped whenever the same file and options may produce different chunks (boundaries, kinds,
 * symbols, context, or none: a kind of file now skipped), so an index built by an older chunker
 * can be recognised and rebuilt.
 */
export const CHUNKING_VERSION = 34;

export { registerChunker, clearCustomChunkers } from "./registry.js";
export { loadCustomChunkers, type CustomChunkerEntry } from "./custom-chunkers.js";
export { embeddingText } from "./embedding-text.js";
export { setGrammarSource, type GrammarSource } from "./grammar-source.js";
export { setParserRuntimeTiers } from "./parser.js";

/**
 * Language of a path as chunks report it ("typescript", "markdown"…); null = line fallback.
 * Given the file's text as well, the language its chunks get: by a script's `#!` line where the
 * name says nothing, and "text" for a shared extension whose text is not the grammar's (MATLAB's
 * `.m`, which line windows chunk).
 */
export function languageForPath(filePath: string, content?: string): string | null {
  const handler = content === undefined ? handlerFor(filePath) : handlerForFile(filePath, content);
  if (!handler) return null;
  if (handler.type === "syntax" && content !== undefined) return languageForContent(handler.spec, filePath, content)?.language ?? "text";
  return handlerLanguage(handler);
}

function handlerLanguage(handler: Handler): string {
  if (handler.type === "syntax") return handler.spec.language;
  if (handler.type === "text") return handler.format;
  return handler.chunker.language;
}

/** A file that was chunked, but not the way its format asked for (see `chunkFile`). */
export interface ChunkWarning {
  filePath: string;
  /** One line: what failed and what was done instead. */
  message: string;
}

/**
 * Chunks one file. `filePath` is workspace-relative with forward slashes; `data` is its text
 * or raw bytes (UTF-8, or UTF-16 with or without a byte order mark). Binary content that no
 * chunker understands yields [].
 *
 * A chunker that fails on a text file (a grammar throwing, a stack overflow on a pathological
 * file, a user chunker's bug) never costs the file: it is chunked by line windows instead and
 * `onWarning` (default: console.warn) says which file and why.
 */
export async function chunkFile(
  filePath: string,
  data: string | Uint8Array,
  given: ChunkingOptions,
  onWarning: (warning: ChunkWarning) => void = (w) => console.warn(`${w.filePath}: ${w.message}`),
): Promise<Chunk[]> {
  // Callers holding an older or partial config still get every limit.
  const options: ChunkingOptions = { ...DEFAULT_CONFIG.chunking, ...given };
  const byName = handlerFor(filePath);
  const limits = { maxLines: options.maxLines, maxChars: options.maxChars, minChars: options.minChars, packChars: options.packChars };
  if (byName?.type === "text" && byName.format === "pdf") {
    return chunkPdf(filePath, typeof data === "string" ? latin1Bytes(data) : data, limits);
  }
  if (filePath.toLowerCase().endsWith(".svg") && byteLength(data) > options.maxSvgSizeBytes) return [];
  const content = typeof data === "string" ? stringText(data) : decodeFileText(data);
  if (content === null) return [];
  const handler = byName ?? handlerForScript(content);
  if (!handler) return chunkByLines(filePath, "text", content, options);
  try {
    return await chunkWith(handler, filePath, content, options, limits);
  } catch (err) {
    if (err instanceof ChunkingConfigError) throw err;
    const language = handlerLanguage(handler);
    const what = handler.type === "custom" ? `chunker "${language}"` : `${language} chunking`;
    onWarning({ filePath, message: `${what} failed (${oneLine(err)}); indexed as line windows` });
    return chunkByLines(filePath, language, content, options);
  }
}

/** Below this size a parse is cheap and may still name a symbol: always parsed. */
const MINIFIED_CHECK_CHARS = 64 * 1024;

/**
 * Whether a big text lies mostly in lines longer than a chunk may be: minified or generated
 * code (a bundle on one line, an asm.js decoder, inlined data). Chunks are whole lines, so a
 * syntax tree could not split such lines anyway, and parsing them cost the most memory of any
 * file (a 0.5 MB one-line decoder grew tree-sitter's memory, which never shrinks, by ~50 MB).
 */
function mostlyOverlongLines(content: string, maxChars: number): boolean {
  return content.length >= MINIFIED_CHECK_CHARS && overlongLineShare(content, maxChars) > 0.5;
}

/** Share of a text's characters that lie in lines longer than `maxChars`. */
export function overlongLineShare(content: string, maxChars: number): number {
  if (content.length === 0) return 0;
  let overlong = 0;
  let start = 0;
  while (start < content.length) {
    let end = content.indexOf("\n", start);
    if (end < 0) end = content.length;
    if (end - start > maxChars) overlong += end - start;
    start = end + 1;
  }
  return overlong / content.length;
}

async function chunkWith(handler: Handler, filePath: string, content: string, options: ChunkingOptions, limits: Limits): Promise<Chunk[]> {
  switch (handler.type) {
    case "custom":
      return normaliseChunks(await handler.chunker.chunk(filePath, content), handler.chunker, filePath);
    case "syntax": {
      const spec = languageForContent(handler.spec, filePath, content);
      if (!spec) return chunkByLines(filePath, "text", content, options);
      if (mostlyOverlongLines(content, limits.maxChars)) return chunkByLines(filePath, spec.language, content, options);
      return chunkWithSyntax(spec, filePath, content, limits, options.nodeTypes?.[spec.language] ?? []);
    }
    case "text":
      if (handler.format === "markdown") return chunkMarkdown(filePath, content, limits);
      if (handler.format === "latex") return chunkLatex(filePath, content, limits);
      if (handler.format === "razor") return chunkRazor(filePath, content, limits);
      if (handler.format === "sql") return chunkSql(filePath, content, limits);
      return chunkSolution(filePath, content, limits);
  }
}

/**
 * The syntax tree of a source file, for features that reuse the chunker's grammars (file
 * skeletons, find-usages), and for a grammar whose skeleton the chunker's units give
 * (`outlineByUnits`), a way to that outline (read from the same tree, only when asked for).
 * null when neither the path nor a script's `#!` line names a tree-sitter grammar. The caller
 * owns the tree: call `tree.delete()` when done, after the outline if it wants one.
 */
export async function parseSource(filePath: string, content: string): Promise<{ language: string; tree: Tree; outline?: () => Promise<UnitOutline[]> } | null> {
  const handler = handlerForFile(filePath, content);
  if (handler?.type !== "syntax") return null;
  const spec = languageForContent(handler.spec, filePath, content);
  if (!spec) return null;
  const tree = await parseAs(spec, content);
  return { language: spec.language, tree, ...(spec.outlineByUnits ? { outline: () => outlineOfUnits(spec, tree, content) } : {}) };
}

/** Text handed over as a string: null when it looks binary (a NUL in its first 8 KiB). */
function stringText(data: string): string | null {
  if (data.slice(0, 8192).includes("\u0000")) return null;
  return data.charCodeAt(0) === 0xfeff ? data.slice(1) : data;
}

function byteLength(data: string | Uint8Array): number {
  return typeof data === "string" ? new TextEncoder().encode(data).byteLength : data.byteLength;
}

function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}
