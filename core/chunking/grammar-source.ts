// Where grammar .wasm bytes come from. The chunker never reads files itself: it asks the
// grammar source, so the same code runs from TypeScript sources, from dist/ bundles and in a
// browser (which sets its own source that fetches over HTTP). No Node built-ins here.

/**
 * Returns the bytes (or a URL/path web-tree-sitter can load) of one grammar file, named as
 * `tree-sitter.wasm` (the runtime) or `tree-sitter-<grammar>.wasm`.
 */
export type GrammarSource = (file: string) => Promise<Uint8Array | string>;

let configured: GrammarSource | null = null;
let listeners: Array<() => void> = [];

/** Replaces the grammar source (e.g. a browser fetcher). Already loaded grammars are dropped. */
export function setGrammarSource(source: GrammarSource | null): void {
  configured = source;
  for (const listener of listeners) listener();
}

/** Called when the source changes, so caches of loaded grammars can be cleared. */
export function onGrammarSourceChange(listener: () => void): void {
  listeners = [...listeners, listener];
}

/** The active source; on first use without one, the Node file reader is loaded lazily. */
export async function grammarSource(): Promise<GrammarSource> {
  if (configured) return configured;
  if (typeof process === "undefined" || !process.versions?.node) {
    throw new Error("tree-sitter grammars: no grammar source set; call setGrammarSource(fetcher) before chunking in a browser");
  }
  // Imported lazily: a browser build sets its own source first and never reaches this line
  // (its bundler may mark `node:*` external or stub this module).
  const mod = await import("./grammar-files-node.js");
  configured ??= mod.readGrammarFile;
  return configured;
}
