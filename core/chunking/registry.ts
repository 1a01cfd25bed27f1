// Which chunker handles which file (F4). Built-in extensions are fixed; user chunkers may add
// new extensions but never take over a built-in one (that would silently change how existing
// code is indexed), so such a clash is reported and skipped.
import type { Chunker } from "../types.js";
import { AST_LANGUAGES, type AstLanguage } from "./languages.js";
import { MARKDOWN_EXTENSIONS } from "./document-paths.js";
import { shebangExtension } from "./shebang.js";

export type TextFormat = "markdown" | "latex" | "razor" | "sln" | "sql" | "pdf";

export type Handler =
  | { type: "syntax"; spec: AstLanguage }
  | { type: "text"; format: TextFormat }
  | { type: "custom"; chunker: Chunker };

const TEXT_EXTENSIONS: Record<TextFormat, string[]> = {
  markdown: MARKDOWN_EXTENSIONS,
  latex: [".tex", ".ltx", ".latex"],
  razor: [".cshtml", ".razor"],
  sln: [".sln"],
  sql: [".sql", ".psql", ".pgsql"],
  pdf: [".pdf"],
};

/** Files known by name rather than extension. */
const FILE_NAMES: Record<string, string> = {
  rakefile: ".rb",
  gemfile: ".rb",
  podfile: ".rb",
  vagrantfile: ".rb",
  "package.swift": ".swift",
  tiltfile: ".star",
  makefile: ".mk",
  gnumakefile: ".mk",
};

/**
 * Names that say their language only in these letters: Bazel's and Buck's build files. A
 * lower-case `build` is as often a shell script.
 */
const CASED_FILE_NAMES: Record<string, string> = {
  BUILD: ".bzl",
  BUCK: ".bzl",
  WORKSPACE: ".bzl",
};

const builtIn = new Map<string, Handler>();
for (const spec of AST_LANGUAGES) for (const ext of spec.extensions) builtIn.set(ext, { type: "syntax", spec });
for (const [format, exts] of Object.entries(TEXT_EXTENSIONS) as Array<[TextFormat, string[]]>) {
  for (const ext of exts) builtIn.set(ext, { type: "text", format });
}

const custom = new Map<string, Handler>();

function normaliseExtension(ext: string): string {
  const e = ext.trim().toLowerCase();
  return e.startsWith(".") ? e : `.${e}`;
}

/** Extensions a path could match, longest first: `a.test.ts` -> `.test.ts`, `.ts`. */
function candidateExtensions(filePath: string): string[] {
  const name = filePath.slice(filePath.lastIndexOf("/") + 1);
  const base = name.toLowerCase();
  const named = FILE_NAMES[base] ?? (Object.hasOwn(CASED_FILE_NAMES, name) ? CASED_FILE_NAMES[name] : undefined);
  const out: string[] = [];
  for (let i = base.indexOf("."); i !== -1; i = base.indexOf(".", i + 1)) if (i > 0 || base.indexOf(".", 1) === -1) out.push(base.slice(i));
  if (named) out.push(named);
  return out;
}

/** The chunker for a path: a user chunker for its extension, else a built-in one, else null (line fallback). */
export function handlerFor(filePath: string): Handler | null {
  for (const ext of candidateExtensions(filePath)) {
    const handler = custom.get(ext) ?? builtIn.get(ext);
    if (handler) return handler;
  }
  return null;
}

/**
 * The chunker for a file whose text is at hand: by its name, else by the interpreter its `#!`
 * line names (an extensionless script is chunked as its language, not as line windows).
 */
export function handlerForFile(filePath: string, content: string): Handler | null {
  return handlerFor(filePath) ?? handlerForScript(content);
}

/** The chunker for the interpreter a text's `#!` line names, or null (for a file its name gave none). */
export function handlerForScript(content: string): Handler | null {
  const ext = shebangExtension(content);
  return ext === null ? null : (custom.get(ext) ?? builtIn.get(ext) ?? null);
}

export function isBuiltInExtension(ext: string): boolean {
  return builtIn.has(normaliseExtension(ext));
}

/**
 * Registers a chunker for extensions (default: its own `fileExtensions`). An extension that a
 * built-in chunker handles is skipped with a warning; a later registration for the same new
 * extension replaces the earlier one.
 */
export function registerChunker(chunker: Chunker, extensions?: string[], warn: (message: string) => void = console.warn): void {
  if (!chunker || typeof chunker.chunk !== "function") {
    throw new Error("registerChunker: expected an object with a chunk(filePath, content) method");
  }
  const exts = extensions ?? [...(chunker.fileExtensions ?? [])];
  if (exts.length === 0) {
    warn(`chunker "${chunker.language}" was registered without extensions; pass them as registerChunker(chunker, [".ext"])`);
    return;
  }
  for (const raw of exts) {
    const ext = normaliseExtension(raw);
    if (builtIn.has(ext)) {
      warn(`chunker "${chunker.language}" skipped for ${ext}: a built-in chunker handles ${ext}; register it for another extension`);
      continue;
    }
    custom.set(ext, { type: "custom", chunker });
  }
}

/** Forgets every user chunker (tests, and a config reload that changed `chunkers`). */
export function clearCustomChunkers(): void {
  custom.clear();
}
