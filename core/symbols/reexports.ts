// Names a chunk re-exports: a module that hands on a name declared elsewhere (`pub use
// axum_core::extract::FromRequest;`, `export { Router } from "./router"`, a package's
// `__init__.py` importing `Flask`) is where that name enters the package's public surface, and
// when the declaration itself lies outside the index (a sibling crate or package) it is the
// only place a search for the name can answer with. Portable: no Node.

/** `pub use a::b::{C, D as E};` (any `pub(…)`): the use tree, without `pub use` and `;`. */
const RUST_PUB_USE = /(?:^|\n)[ \t]*pub(?:\([^)]*\))?[ \t]+use[ \t]+([^;]+);/g;
/** A use tree's leaves: a name not followed by `::` (an `as` alias in place of the name it renames). */
const RUST_LEAF = /\b([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?\s*(?=[,}]|$)/g;

/** `export { A, B as C } from "…"`, `export type { T } from "…"`, `export * as ns from "…"`. */
const JS_EXPORT_FROM = /(?:^|\n)[ \t]*export[ \t]+(?:type[ \t]+)?(?:\{([^}]*)\}|\*[ \t]+as[ \t]+([A-Za-z_$][\w$]*))[ \t]*from\b/g;

/** `from .app import Flask as Flask`, `from x import (A, B)` at the start of a line. */
const PY_FROM_IMPORT = /(?:^|\n)from[ \t]+[\w.]+[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)/g;

const JS_LANGUAGES = new Set(["javascript", "typescript", "tsx", "jsx"]);

/**
 * The names `content` re-exports, in order, each once: Rust's `pub use`, JavaScript and
 * TypeScript's `export … from`, and the imports of a Python package's `__init__.py` (by
 * convention its public names). Other languages re-export by declaring (a type alias, a
 * constant), which the declaration patterns already read.
 */
export function reExportedNames(chunk: { content: string; language: string; filePath: string }): string[] {
  const names: string[] = [];
  const add = (name: string | undefined) => {
    if (name && name !== "self" && name !== "default" && !names.includes(name)) names.push(name);
  };
  const { content, language } = chunk;
  if (language === "rust" && content.includes("use")) {
    for (const m of content.matchAll(RUST_PUB_USE)) for (const leaf of m[1].matchAll(RUST_LEAF)) add(leaf[2] ?? leaf[1]);
  } else if (JS_LANGUAGES.has(language) && content.includes("export")) {
    for (const m of content.matchAll(JS_EXPORT_FROM)) {
      if (m[2]) add(m[2]);
      else for (const item of m[1].split(",")) add(aliasOrName(item.replace(/^\s*type\s+/, "")));
    }
  } else if (language === "python" && /(?:^|\/)__init__\.py$/.test(chunk.filePath) && content.includes("import")) {
    for (const m of content.matchAll(PY_FROM_IMPORT)) {
      for (const item of m[1].replace(/[()]/g, "").replace(/#[^\n]*/g, "").split(",")) add(aliasOrName(item));
    }
  }
  return names;
}

/** `A as B` → `B`, `A` → `A`; nothing for `*` or an empty item. */
function aliasOrName(item: string): string | undefined {
  const m = /^\s*([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?\s*$/.exec(item);
  return m ? (m[2] ?? m[1]) : undefined;
}
