// Pluggable chunkers (F4): registerChunker from code and `chunkers` modules from config.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chunkFile, clearCustomChunkers, languageForPath, loadCustomChunkers, registerChunker } from "../../core/chunking/index.js";
import type { Chunker } from "../../core/types.js";
import { FIXTURES, options } from "./helpers.js";

const plugin = (name: string) => join(FIXTURES, "plugins", name);

afterEach(() => clearCustomChunkers());

const INI = "[server]\nport = 8080\n\n[log]\nlevel = info\n";

describe("registerChunker", () => {
  it("routes a new extension to the registered chunker", async () => {
    const seen: string[] = [];
    const chunker: Chunker = {
      language: "properties",
      async chunk(filePath, content) {
        seen.push(filePath);
        return [{ filePath, startLine: 1, endLine: 2, language: "properties", kind: "block", symbol: "core", context: "core", content }];
      },
    };
    registerChunker(chunker, [".properties", "CFG"]);
    expect(languageForPath("conf/app.properties")).toBe("properties");
    expect(languageForPath("conf/app.cfg")).toBe("properties");
    const chunks = await chunkFile("conf/app.properties", "core.x=1\ncore.y=2", options());
    expect(chunks).toEqual([
      { filePath: "conf/app.properties", startLine: 1, endLine: 2, language: "properties", kind: "block", symbol: "core", context: "core", content: "core.x=1\ncore.y=2" },
    ]);
    expect(seen).toEqual(["conf/app.properties"]);
  });

  it("warns and skips an extension a built-in chunker owns", async () => {
    const warnings: string[] = [];
    const chunker: Chunker = { language: "other-ts", chunk: async () => [] };
    registerChunker(chunker, [".ts", ".tsq"], (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/other-ts.*\.ts.*built-in/);
    expect(languageForPath("a/b.ts")).toBe("typescript");
    expect(languageForPath("a/b.tsq")).toBe("other-ts");
    const chunks = await chunkFile("a/b.ts", "export function f(): number {\n  return 1;\n}\n", options());
    expect(chunks[0]).toMatchObject({ kind: "function", symbol: "f" });
  });

  it("uses the chunker's own fileExtensions when none are passed", () => {
    registerChunker({ language: "gql", fileExtensions: [".graphql"], chunk: async () => [] });
    expect(languageForPath("schema/api.graphql")).toBe("gql");
  });

  it("falls back to line windows when a chunker fails or returns garbage, naming it and the file", async () => {
    const warnings: string[] = [];
    const warn = (w: { filePath: string; message: string }) => warnings.push(`${w.filePath}: ${w.message}`);
    registerChunker({ language: "broken", chunk: async () => { throw new Error("boom"); } }, [".brk"]);
    expect(await chunkFile("x/a.brk", "text", options(), warn)).toMatchObject([{ kind: "lines", language: "broken", content: "text" }]);
    registerChunker({ language: "odd", chunk: async () => "nope" as never }, [".odd"]);
    expect(await chunkFile("x/a.odd", "text", options(), warn)).toMatchObject([{ kind: "lines", language: "odd", content: "text" }]);
    expect(warnings[0]).toBe('x/a.brk: chunker "broken" failed (boom); indexed as line windows');
    expect(warnings[1]).toMatch(/^x\/a\.odd: chunker "odd" failed \(.*must resolve to an array.*\); indexed as line windows$/);
  });
});

describe("loadCustomChunkers (config `chunkers`)", () => {
  it("loads a default-exported chunker module for its extensions", async () => {
    await loadCustomChunkers([{ module: plugin("ini-chunker.mjs"), extensions: [".ini"] }]);
    const chunks = await chunkFile("conf/app.ini", INI, options());
    expect(chunks.map((c) => `${c.kind} ${c.symbol} ${c.startLine}-${c.endLine}`)).toEqual([
      "section server 1-3",
      "section log 4-6",
    ]);
    expect(chunks[0].language).toBe("ini");
  });

  it("accepts a named export returning the older { content, metadata } shape", async () => {
    await loadCustomChunkers([{ module: plugin("legacy-chunker.mjs"), extensions: [".proto"] }]);
    const proto = 'syntax = "proto3";\nmessage Ping {}\n';
    const [chunk] = await chunkFile("api/ping.proto", proto, options());
    expect(chunk).toEqual({
      filePath: "api/ping.proto",
      startLine: 1,
      endLine: 3,
      language: "protobuf",
      kind: "block",
      symbol: "",
      context: "",
      content: proto,
    });
  });

  it("warns about a clash with a built-in extension and keeps the built-in chunker", async () => {
    const warnings: string[] = [];
    await loadCustomChunkers([{ module: plugin("clash-chunker.mjs"), extensions: [".rs", ".ron"] }], (m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringMatching(/"my-rust" skipped for \.rs/)]);
    expect(languageForPath("src/lib.rs")).toBe("rust");
    expect(languageForPath("assets/level.ron")).toBe("my-rust");
  });

  it("fails with the config key and a fix for a missing module or one without a chunker", async () => {
    await expect(loadCustomChunkers([{ module: plugin("does-not-exist.mjs") }])).rejects.toThrow(
      /^chunkers\[0\]\.module: cannot load ".*does-not-exist\.mjs".*fix the path/,
    );
    await expect(
      loadCustomChunkers([{ module: plugin("ini-chunker.mjs") }, { module: plugin("not-a-chunker.mjs") }]),
    ).rejects.toThrow(/^chunkers\[1\]\.module: .*exports no chunker/);
    await expect(loadCustomChunkers([{ module: "./ini-chunker.mjs" }])).rejects.toThrow(
      /^chunkers\[0\]\.module: expected an absolute path or file URL, got "\.\/ini-chunker\.mjs"/,
    );
  });
});
