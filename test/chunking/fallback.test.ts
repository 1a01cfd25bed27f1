// Robustness: files that used to be dropped from the index are chunked (bash scripts, one-line
// minified code, UTF-16 text), and a chunker that fails costs the file its structure, never its
// text: line windows with a warning naming the file.
import { afterEach, describe, expect, it } from "vitest";
import { chunkFile, clearCustomChunkers, registerChunker } from "../../core/chunking/index.js";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { KEYWORD_ONLY, makeWorkspace, pathsHolding, removeWorkspace } from "../indexing/helpers.js";
import { DEPLOY_SH, options, outline } from "./helpers.js";

// A model folder that does not exist: the engine searches keywords only, with no model to load.
const keywordOnly = KEYWORD_ONLY;

const roots: string[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const r of roots.splice(0)) removeWorkspace(r);
  clearCustomChunkers();
});

/** A keyword-only engine over a fresh workspace, with every log record kept. */
async function engineOver(files: Record<string, string | Uint8Array>) {
  const root = makeWorkspace(files, "rag-fallback-");
  roots.push(root);
  const logs: Array<{ message: string; data?: Record<string, unknown> }> = [];
  const record = (message: string, data?: Record<string, unknown>) => logs.push({ message, data });
  const engine = await openEngine({ root, overrides: keywordOnly, logger: { debug: record, info: record, error: record } });
  engines.push(engine);
  return { engine, logs };
}

function utf16le(text: string, bom: boolean): Uint8Array {
  const out = new Uint8Array((bom ? 2 : 0) + text.length * 2);
  if (bom) out.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    out[(bom ? 2 : 0) + 2 * i] = text.charCodeAt(i) & 0xff;
    out[(bom ? 2 : 0) + 2 * i + 1] = text.charCodeAt(i) >> 8;
  }
  return out;
}

function utf16be(text: string): Uint8Array {
  const le = utf16le(text, true);
  const out = new Uint8Array(le.length);
  for (let i = 0; i < le.length; i += 2) (out[i] = le[i + 1]), (out[i + 1] = le[i]);
  return out;
}


/** One line of minified-looking JavaScript, about `bytes` long, with `marker` near its end. */
function minifiedLine(bytes: number, marker: string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = `function f${i}(a,b){return a+b*${i}}var v${i}=f${i}(${i},2);`;
    parts.push(part);
    size += part.length;
  }
  return `${parts.join("")}var ${marker}=1;\n`;
}

describe("bash", () => {
  it("chunks a script with case statements and heredocs by function", async () => {
    const warnings: string[] = [];
    const chunks = await chunkFile("scripts/deploy.sh", DEPLOY_SH, options({ minChars: 0 }), (w) => warnings.push(w.message));
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual(["preamble  1-2", "function usage 4-9", "function deploy_target 11-20", "block  22-22"]);
    expect(chunks.every((c) => c.language === "bash")).toBe(true);
  });
});

describe("one-line minified code", () => {
  it("a 1 MB line of functions is one chunk of lines, never parsed", async () => {
    const text = minifiedLine(1024 * 1024, "endMarker");
    const warnings: string[] = [];
    const chunks = await chunkFile("dist/app.min.js", text, options(), (w) => warnings.push(w.message));
    expect(warnings).toEqual([]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 1, kind: "lines", language: "javascript" });
    expect(chunks[0].content).toContain("endMarker");
  });

  it("code with an overlong line of data in it is still chunked by its syntax", async () => {
    const body = Array.from({ length: 1000 }, (_, i) => `export function handler${i}(request) {\n  return route(request, ${i});\n}\n`).join("\n");
    const text = `const TABLE = [${"0.125, ".repeat(4000)}];\n${body}`;
    const chunks = await chunkFile("src/handlers.js", text, options({ maxChars: 2000 }));
    expect(chunks.some((c) => c.kind === "function" && c.symbol === "handler7")).toBe(true);
    expect(chunks.find((c) => c.startLine === 1)!.content).toContain("0.125");
  });

  it("functions sharing a line do not nest in each other", async () => {
    const text = "function a(){return 1} function b(){return 2}\nfunction c(){\n  return 3;\n}\n";
    const chunks = await chunkFile("a.js", text, options({ minChars: 0, maxChars: 30 }));
    expect(chunks.map((c) => c.context)).toEqual(["function a()", "function c()"]);
  });
});

describe("plain-text documents", () => {
  it("windows of .rst, .txt and .adoc files are prose; CMakeLists.txt and grammar-less code stay lines", async () => {
    const text = "Blueprints\n==========\n\nA blueprint records routes and registers them on the app later.\n";
    for (const path of ["docs/blueprints.rst", "docs/notes.txt", "guide/intro.adoc"]) {
      const chunks = await chunkFile(path, text, options());
      expect(chunks.length, path).toBeGreaterThan(0);
      expect(new Set(chunks.map((c) => c.kind)), path).toEqual(new Set(["paragraph"]));
    }
    expect((await chunkFile("src/CMakeLists.txt", "add_library(core core.c)\n", options()))[0].kind).toBe("lines");
    expect((await chunkFile("bin/report.pl", "sub report { print 'ok'; }\n", options()))[0].kind).toBe("lines");
  });

  it("a troff man page is prose by its first line, whatever its section number; a script named after a version is not", async () => {
    const page = '.\\" Generated by pandoc\n.TH XMONAD 1 "2024"\n.SH NAME\nxmonad \\- a tiling window manager\n';
    const mdoc = ".Dd March 1, 2024\n.Dt LS 1\n.Sh NAME\n.Nm ls\n";
    for (const [path, text] of [["man/xmonad.1", page], ["doc/lua.1", '.TH LUA 1 "2006"\n.SH NAME\nlua \\- interpreter\n'], ["man/ls.1.in", mdoc], ["docs/tool.8", page]]) {
      expect(new Set((await chunkFile(path, text, options())).map((c) => c.kind)), path).toEqual(new Set(["paragraph"]));
    }
    const script = "#!/bin/sh\nnvm ls 0.0.2 | grep 0.0.2\n";
    // Its `#!` line makes it a shell script, chunked as code.
    expect((await chunkFile("test/fast/Running nvm ls 0.0.2", script, options()))[0]).toMatchObject({ language: "bash", kind: "block" });
  });

  it("a document's .in template is chunked as the document it becomes", async () => {
    const md = "# xmonad\n\n## Synopsis\n\nxmonad tiles windows.\n\n## Options\n\nRun it with --recompile.\n";
    const chunks = await chunkFile("man/xmonad.1.markdown.in", md, options());
    expect(chunks[0].language).toBe("markdown");
    expect(chunks.map((c) => c.kind)).toContain("section");
    expect(new Set((await chunkFile("docs/intro.rst.in", "Intro\n=====\n\nA paragraph.\n", options())).map((c) => c.kind))).toEqual(new Set(["paragraph"]));
    expect((await chunkFile("src/CMakeLists.txt.in", "add_library(core core.c)\n", options()))[0].kind).toBe("lines");
  });

  it("a question about code finds the code before the guide that describes it in the same words", async () => {
    const guide = [
      "Registering routes on a blueprint",
      "=================================",
      "",
      ...Array.from({ length: 12 }, () => "A blueprint defers registering routes: each route is recorded, and registering the blueprint on the app replays the recorded routes."),
    ].join("\n");
    const code = [
      "class Blueprint:",
      "    def __init__(self, name):",
      "        self.name = name",
      "        self.deferred = []",
      "",
      "    def record(self, func):",
      "        self.deferred.append(func)",
      "",
      "    def register(self, app):",
      "        for deferred in self.deferred:",
      "            deferred(app)",
      "",
    ].join("\n");
    const { engine } = await engineOver({ "docs/blueprints.rst": guide, "src/blueprints.py": code });
    await engine.index();
    const hits = await engine.search("how does a blueprint record and register routes on the app", { topK: 2 });
    expect(hits.map((h) => h.chunk.filePath)).toEqual(["src/blueprints.py", "docs/blueprints.rst"]);
  });
});

describe("through the index", () => {
  it("indexes a 1 MB one-line JavaScript file and finds a word at its end", async () => {
    // 1,000,000 bytes: within indexing.maxFileSizeBytes (1 MiB); `.min.js` and dist/ are excluded by default.
    const { engine } = await engineOver({ "web/bundle.js": minifiedLine(1_000_000 - 200, "zebraCrossingMarker"), "src/a.ts": "export const a = 1;\n" });
    const summary = await engine.index();
    expect(summary.errors).toEqual([]);
    expect(summary.warnings).toEqual([]);
    expect(summary.filesIndexed).toBe(2);
    expect(await pathsHolding(engine, "zebraCrossingMarker")).toEqual(["web/bundle.js"]);
  });

  it("indexes UTF-16 text: little-endian with and without a byte order mark, big-endian with one", async () => {
    const cs = "namespace Legacy\r\n{\r\n    public class WindowsGreeter\r\n    {\r\n        public string Greet() => \"quetzalcoatl\";\r\n    }\r\n}\r\n";
    const { engine } = await engineOver({
      "win/Greeter.cs": utf16le(cs, true),
      "win/readme.txt": utf16le("Notes from the Windows build machine.\r\nThe archipelago setting lives in the registry.\r\n", false),
      "win/big-endian.txt": utf16be("A big-endian note about the marmalade cache.\n"),
    });
    const summary = await engine.index();
    expect(summary).toMatchObject({ filesIndexed: 3, filesSkipped: 0, errors: [], warnings: [] });
    expect(await pathsHolding(engine, "quetzalcoatl")).toEqual(["win/Greeter.cs"]);
    expect(await pathsHolding(engine, "archipelago")).toEqual(["win/readme.txt"]);
    expect(await pathsHolding(engine, "marmalade")).toEqual(["win/big-endian.txt"]);
    const hit = (await engine.search("quetzalcoatl", { topK: 1 }))[0].chunk;
    expect(hit.content).toContain("public class WindowsGreeter");
    expect(hit.content).not.toContain("\u0000");
  });

  it("a chunker that throws: the file is indexed as line windows, with a warning naming it", async () => {
    registerChunker({ language: "recipe", chunk: async () => { throw new Error("recipe parser exploded"); } }, [".recipe"]);
    const { engine, logs } = await engineOver({ "food/soup.recipe": "Take two leeks.\nSimmer the gazpacho base slowly.\n", "src/a.ts": "export const a = 1;\n" });
    const summary = await engine.index();
    expect(summary.errors).toEqual([]);
    expect(summary.filesIndexed).toBe(2);
    expect(summary.warnings).toEqual([
      { filePath: "food/soup.recipe", warning: 'chunker "recipe" failed (recipe parser exploded); indexed as line windows' },
    ]);
    expect(logs.some((l) => l.data?.filePath === "food/soup.recipe" && String(l.data?.reason).includes("recipe parser exploded"))).toBe(true);
    const hits = await engine.search("gazpacho", { topK: 3 });
    expect(hits[0].chunk).toMatchObject({ filePath: "food/soup.recipe", kind: "lines", language: "recipe", startLine: 1, endLine: 2 });
  });
});
