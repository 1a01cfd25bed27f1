// What a chunk's keyword document records as the names it declares: its own (and a pack's
// members'), and the names it assigns at module level, which the chunker names no chunk by.
import { describe, expect, test } from "vitest";
import { KeywordIndex, keywordDocOf } from "../../core/keyword/index.js";
import type { ChunkRecord } from "../../core/types.js";

function record(content: string, extra: Partial<ChunkRecord> = {}): ChunkRecord {
  return { id: "c", filePath: "src/flask/globals.py", startLine: 26, endLine: 60, language: "python", kind: "class", symbol: "_AppCtxGlobalsProxy", context: "", content, contentHash: "h", description: "", ...extra };
}

const GLOBALS = [
  "class _AppCtxGlobalsProxy(_AppCtxGlobals):",
  "    value = 1  # a class attribute, not a module's name",
  "",
  "app_ctx: AppContextProxy = LocalProxy(  # type: ignore[assignment]",
  '    _cv_app, unbound_message=_no_app_msg',
  ")",
  "g: _AppCtxGlobalsProxy = LocalProxy(_cv_app, \"g\")",
  "DEFAULT_TIMEOUT = 5.0",
  "settings.debug = True",
  "a, b = 1, 2",
  "if DEFAULT_TIMEOUT == 5.0:",
  "    pass",
].join("\n");

describe("keywordDocOf", () => {
  test("records the chunk's own name and the names it assigns at module level", () => {
    const doc = keywordDocOf(record(GLOBALS), GLOBALS);
    expect(doc.declares).toEqual(["_AppCtxGlobalsProxy", "app_ctx", "g", "DEFAULT_TIMEOUT"]);
    // The symbol field BM25 weighs stays the chunk's own names.
    expect(doc.symbol).toBe("_AppCtxGlobalsProxy");
  });

  test("reads declarations in each language's own words, and none in documents or data", () => {
    const js = "export const DEFAULTS = {}\nlet cache = new Map()\nconst handler = (req) => {}\nmodule.exports = handler";
    expect(keywordDocOf(record(js, { language: "javascript", symbol: "" }), js).declares).toEqual(["DEFAULTS", "cache", "handler"]);
    const sh = "NVM_DIR=\"$HOME/.nvm\"\nexport NVM_CD_FLAGS=''\nif [ -z \"$X\" ]; then\n  Y=1\nfi";
    expect(keywordDocOf(record(sh, { language: "bash", symbol: "" }), sh).declares).toEqual(["NVM_DIR", "NVM_CD_FLAGS"]);
    const dart = "final navigatorKey = GlobalKey<NavigatorState>();\nconst kTimeout = Duration(seconds: 5);\nvar retries = 3;";
    expect(keywordDocOf(record(dart, { language: "dart", symbol: "" }), dart).declares).toEqual(["navigatorKey", "kTimeout", "retries"]);
    const toml = "name = \"demo\"\nversion = \"1.0\"";
    expect(keywordDocOf(record(toml, { language: "toml", kind: "key", symbol: "" }), toml).declares).toEqual([]);
    const md = "Setting = the value you want";
    expect(keywordDocOf(record(md, { language: "markdown", kind: "section", symbol: "" }), md).declares).toEqual([]);
  });

  test("a one-letter name no keyword finds is found by its declaration", () => {
    const index = new KeywordIndex();
    const other = "def render(template):\n    return template.format()";
    index.add([keywordDocOf(record(GLOBALS), GLOBALS), keywordDocOf(record(other, { id: "o", symbol: "render", kind: "function" }), other)]);
    expect(index.search("g", 5)).toEqual([]);
    const hits = index.search("g", 5, undefined, ["g"]);
    expect(hits.map((h) => h.id)).toEqual(["c"]);
    expect(hits[0].score).toBeCloseTo(1 - Math.exp(-1.2), 5);
  });
});
