// The names a module hands on from elsewhere: where a symbol search lands when the declaration
// itself lies outside the index.
import { describe, expect, it } from "vitest";
import { reExportedNames } from "../../core/symbols/reexports.js";

const names = (language: string, content: string, filePath = "src/x") => reExportedNames({ language, content, filePath });

describe("re-exported names", () => {
  it("reads Rust's pub use trees, with aliases and without private uses", () => {
    const lib = [
      "use http::header::{self, HeaderMap};",
      "#[doc(inline)]",
      "pub use axum_core::extract::{",
      "    DefaultBodyLimit, FromRef, FromRequest as Extract,",
      "};",
      "pub(crate) use self::rejection::JsonRejection;",
      "pub use crate::routing::*;",
    ].join("\n");
    expect(names("rust", lib, "axum/src/extract/mod.rs")).toEqual(["DefaultBodyLimit", "FromRef", "Extract", "JsonRejection"]);
    expect(names("rust", "use axum_core::extract::FromRequest;")).toEqual([]);
  });

  it("reads JavaScript and TypeScript exports from other modules, not local export lists", () => {
    const index = [
      'export { Router, createRouter as router } from "./router";',
      'export type { Context } from "./context";',
      'export * as errors from "./errors";',
      'export * from "./util";',
      "export { local };",
    ].join("\n");
    expect(names("typescript", index, "src/index.ts")).toEqual(["Router", "router", "Context", "errors"]);
  });

  it("reads a Python package's __init__ imports, and no other module's", () => {
    const init = "from .app import Flask as Flask\nfrom .globals import (\n    g,  # the app globals\n    request,\n)\nimport os\n";
    expect(names("python", init, "src/flask/__init__.py")).toEqual(["Flask", "g", "request"]);
    expect(names("python", init, "src/flask/app.py")).toEqual([]);
  });

  it("reads nothing in languages that re-export by declaring", () => {
    expect(names("go", "type Handler = http.Handler")).toEqual([]);
  });
});
