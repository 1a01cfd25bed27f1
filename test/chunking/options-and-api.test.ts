// Config knobs (maxLines, maxChars, minChars, nodeTypes) and the helpers other parts use:
// embeddingText, parseSource, languageForPath, and scripts known by their `#!` line.
import { describe, expect, it } from "vitest";
import { chunkFile, embeddingText, languageForPath, parseSource } from "../../core/chunking/index.js";
import { shebangExtension } from "../../core/chunking/shebang.js";
import { chunkFixture, find, fixtureNames, options } from "./helpers.js";

describe("size limits", () => {
  it("cuts a huge function without inner units at statement boundaries", async () => {
    const body = Array.from({ length: 60 }, (_, i) => `  total += compute(${i}, values[${i}]);`).join("\n");
    const text = `export function sum(values: number[]): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    const chunks = await chunkFile("src/sum.ts", text, options({ maxLines: 20, minChars: 0 }));
    expect(chunks.length).toBe(4);
    for (const c of chunks) {
      expect(c).toMatchObject({ kind: "function", symbol: "sum", context: "function sum(values: number[])" });
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(20);
    }
    expect(chunks[0].startLine).toBe(1);
    expect(chunks.at(-1)!.endLine).toBe(64);
  });

  it("honours maxChars as well as maxLines", async () => {
    const chunks = await chunkFixture("sample.ts", { maxChars: 300, minChars: 0 });
    for (const c of chunks) if (c.endLine > c.startLine) expect(c.content.length).toBeLessThanOrEqual(300);
    expect(find(chunks, "get", "method").context).toBe("class LruCache > method get(key: string, now: number)");
  });

  it("merges tiny pieces (minChars) into neighbours without crossing into another class", async () => {
    const merged = await chunkFixture("sample.ts", { minChars: 200, maxLines: 15 });
    const unmerged = await chunkFixture("sample.ts", { minChars: 0, maxLines: 15 });
    expect(merged.length).toBeLessThan(unmerged.length);
    // The imports and the exported constant lean on the first declaration after them.
    expect(merged[0]).toMatchObject({ kind: "interface", symbol: "CacheEntry", startLine: 1, endLine: 11 });
    // The lone console.log at the end joins the function before it.
    expect(merged.at(-1)).toMatchObject({ kind: "function", symbol: "loadConfig", startLine: 58, endLine: 63 });
    // Members of LruCache never merge with code outside the class.
    for (const c of merged) if (c.context.startsWith("class LruCache >")) expect(c.endLine).toBeLessThanOrEqual(51);
  });

  it("never merges two named declarations, so each stays findable by its symbol", async () => {
    const chunks = await chunkFixture("sample.ts", { minChars: 200 });
    expect(find(chunks, "Loader", "type")).toMatchObject({ startLine: 13, endLine: 13 });
    expect(find(chunks, "Mode", "enum")).toMatchObject({ startLine: 15, endLine: 18 });
    const go = await chunkFixture("server.go", { minChars: 400 });
    expect(go.map((c) => c.symbol)).toEqual(["Store", "Item", "Getter", "NewStore", "Store.Get", "Store.ServeHTTP"]);
  });

  it("does merge tiny minor units such as JSON keys", async () => {
    const chunks = await chunkFixture("settings.json", { minChars: 200 });
    expect(chunks.map((c) => `${c.symbol} ${c.startLine}-${c.endLine}`)).toEqual(["scripts 1-12", "server 13-19"]);
  });
});

describe("concurrent calls", () => {
  it("give the same chunks as one-by-one calls, grammars loading once underneath", async () => {
    const names = fixtureNames().filter((n) => !n.endsWith(".pdf"));
    const together = await Promise.all(names.map((n) => chunkFixture(n, { maxLines: 12, minChars: 50 })));
    for (const [i, name] of names.entries()) {
      expect(together[i], name).toEqual(await chunkFixture(name, { maxLines: 12, minChars: 50 }));
    }
  });
});

describe("chunking.maxSvgSizeBytes", () => {
  it("chunks a small SVG as XML and skips one over the limit", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg">\n${'  <rect width="1" height="1"/>\n'.repeat(20)}</svg>\n`;
    const small = await chunkFile("icons/a.svg", svg, options({ maxSvgSizeBytes: 10_000 }));
    expect(small[0]).toMatchObject({ language: "xml", kind: "element", symbol: "svg" });
    expect(await chunkFile("icons/a.svg", svg, options({ maxSvgSizeBytes: 100 }))).toEqual([]);
  });
});

describe("partial options", () => {
  it("fills missing keys from the defaults (an older saved config)", async () => {
    const chunks = await chunkFile("src/a.py", "def f():\n    return 1\n", { maxLines: 50 } as never);
    expect(chunks).toEqual([
      expect.objectContaining({ kind: "function", symbol: "f", startLine: 1, endLine: 2, context: "function f()" }),
    ]);
  });
});

describe("chunking.nodeTypes", () => {
  const py = [
    "def handle(command):",
    "    match command:",
    "        case 'start':",
    "            return start()",
    "        case 'stop':",
    "            return stop()",
    "",
    "",
    "with open('x') as f:",
    "    data = f.read()",
  ].join("\n");

  it("makes extra node types chunks of their own kind", async () => {
    const chunks = await chunkFile("tool.py", py, options({ minChars: 0, maxLines: 5, nodeTypes: { python: ["match_statement", "with_statement"] } }));
    expect(find(chunks, "", "match_statement")).toMatchObject({ startLine: 2, endLine: 6, context: "function handle(command) > match_statement" });
    expect(find(chunks, "", "with_statement")).toMatchObject({ startLine: 9, endLine: 10 });
  });

  it("rejects a node type the grammar does not have, naming the key and the fix", async () => {
    await expect(chunkFile("tool.py", py, options({ nodeTypes: { python: ["no_such_node"] } }))).rejects.toThrow(
      'chunking.nodeTypes.python: "no_such_node" is not a node type of the python grammar; remove it or use a type the grammar defines',
    );
  });
});

describe("embeddingText", () => {
  it("puts path and context before the code, and the description when there is one", async () => {
    const chunks = await chunkFixture("sample.ts", { minChars: 0, maxLines: 15 });
    const get = find(chunks, "get", "method");
    const text = embeddingText(get);
    expect(text.split("\n")[0]).toBe("src/sample.ts | class LruCache > method get(key: string, now: number)");
    expect(text.endsWith(get.content)).toBe(true);
    const described = embeddingText({ ...get, description: "Reads a cache entry, loading it on a miss." });
    expect(described.split("\n")[1]).toBe("Reads a cache entry, loading it on a miss.");
    expect(embeddingText({ ...get, context: "" }).split("\n")[0]).toBe("src/sample.ts");
  });
});

describe("parseSource and languageForPath", () => {
  it("returns a tree from the same grammars, or null for files without one", async () => {
    const parsed = await parseSource("src/a.go", "package a\n\nfunc F() int { return 1 }\n");
    expect(parsed?.language).toBe("go");
    expect(parsed?.tree.rootNode.type).toBe("source_file");
    expect(parsed?.tree.rootNode.namedChildren.map((n) => n?.type)).toEqual(["package_clause", "function_declaration"]);
    parsed?.tree.delete();
    expect(await parseSource("README.md", "# hi")).toBeNull();
  });

  it("maps extensions and well-known file names to languages", () => {
    const cases: Record<string, string | null> = {
      "a/b.tsx": "typescript",
      "a/b.mjs": "javascript",
      "a/b.jsx": "javascript",
      "a/B.JAVA": "java",
      "a/b.h": "c",
      "a/b.hpp": "cpp",
      "a/b.cs": "csharp",
      "Rakefile": "ruby",
      "a/b.kts": "kotlin",
      "a/b.csproj": "xml",
      "a/b.htm": "html",
      "docs/x.markdown": "markdown",
      "Pages/Index.cshtml": "razor",
      "App.sln": "sln",
      "db/001_init.sql": "sql",
      "paper.tex": "latex",
      "paper.pdf": "pdf",
      ".eslintrc.json": "json",
      "Makefile": "make",
      "src/GNUmakefile": "make",
      "build/rules.mk": "make",
      "notes.txt": null,
    };
    for (const [path, language] of Object.entries(cases)) expect(languageForPath(path), path).toBe(language);
  });

  it("given the text, names the language the file's chunks get", () => {
    // `.m` is Objective-C's and MATLAB's; `.h` C's, C++'s and Objective-C's.
    expect(languageForPath("lib/Counter.m", "#import <Foundation/Foundation.h>\n@implementation Counter\n@end\n")).toBe("objc");
    expect(languageForPath("lib/scaled.m", "function y = scaled(x)\n  y = 2 * x;\nend\n")).toBe("text");
    expect(languageForPath("lib/Counter.h", "@interface Counter : NSObject\n@end\n")).toBe("objc");
    expect(languageForPath("lib/box.h", "namespace box {\nclass Box {};\n}\n")).toBe("cpp");
    expect(languageForPath("bin/deploy", "#!/usr/bin/env bash\necho hi\n")).toBe("bash");
    expect(languageForPath("notes.txt", "plain words\n")).toBeNull();
  });
});

describe("scripts named by their #! line", () => {
  it("reads the interpreter through env, its options and a version in its name", () => {
    const cases: Record<string, string | null> = {
      "#!/usr/bin/env bash\n": ".sh",
      "#!/bin/sh -e\nset -x\n": ".sh",
      "#! /usr/bin/python3.11 -u\n": ".py",
      "#!/usr/bin/env -S deno run --allow-net\n": ".ts",
      "#!/usr/bin/env NODE_ENV=production node\n": ".js",
      "#!/usr/local/bin/ruby": ".rb",
      "#!/usr/bin/env lua5.4\n": ".lua",
      "#!/usr/bin/env perl\n": null,
      "#!\n": null,
      "# not a shebang\n": null,
      " #!/bin/sh\n": null,
    };
    for (const [text, ext] of Object.entries(cases)) expect(shebangExtension(text), JSON.stringify(text)).toBe(ext);
  });

  it("chunks an extensionless script as its language, so its functions keep their names", async () => {
    const script = [
      "#!/usr/bin/env bash",
      "# Runs one test file and reports each test's result.",
      "set -e",
      "",
      "bats_test_begin() {",
      '  local name="$1"',
      '  echo "begin $name"',
      "}",
      "",
      "bats_exit_trap() {",
      "  local status=$?",
      '  echo "exit $status"',
      "}",
      "",
      'bats_test_begin "$@"',
    ].join("\n");
    const chunks = await chunkFile("libexec/bats-core/bats-exec-test", script, options({ minChars: 0, packChars: 0 }));
    expect(chunks.map((c) => [c.language, c.kind, c.symbol])).toEqual(
      expect.arrayContaining([
        ["bash", "function", "bats_test_begin"],
        ["bash", "function", "bats_exit_trap"],
      ]),
    );
    const python = await chunkFile("bin/release", "#!/usr/bin/env python3\n\ndef main():\n    return 0\n", options({ minChars: 0 }));
    expect(python.map((c) => [c.language, c.kind, c.symbol])).toEqual(expect.arrayContaining([["python", "function", "main"]]));
  });

  it("keeps the file name's language over the #! line, and line windows for unknown interpreters", async () => {
    const asPython = await chunkFile("tool.py", "#!/usr/bin/env bash\ndef main():\n    return 0\n", options({ minChars: 0 }));
    expect(asPython.every((c) => c.language === "python")).toBe(true);
    const perl = await chunkFile("bin/report", "#!/usr/bin/env perl\nsub main { return 0; }\nmain();\n", options({ minChars: 0 }));
    expect(perl.map((c) => c.language)).toEqual(["text"]);
  });

  it("parses an extensionless script for outlines and usages", async () => {
    const parsed = await parseSource("bin/deploy", "#!/bin/sh\ndeploy() {\n  echo ok\n}\n");
    expect(parsed?.language).toBe("bash");
    expect(parsed?.tree.rootNode.namedChildren.map((n) => n?.type)).toEqual(["comment", "function_definition"]);
    parsed?.tree.delete();
    expect(await parseSource("bin/notes", "just some words\n")).toBeNull();
  });
});
