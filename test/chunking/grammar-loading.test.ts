// Grammars load from dist/grammars (bundles), from node_modules (TypeScript sources, no
// build yet), and through a pluggable source (browsers); the portable modules stay free of
// Node built-ins.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { chunkFile, setGrammarSource } from "../../core/chunking/index.js";
import { findGrammarFile, readGrammarFile } from "../../core/chunking/grammar-files-node.js";
import { options } from "./helpers.js";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const nodeModules = join(repo, "node_modules");
const temps: string[] = [];
afterAll(() => {
  setGrammarSource(null);
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

describe("grammar files on Node", () => {
  it("falls back to the packages in node_modules, XML and YAML from @kerebron/wasm", () => {
    const search = { grammarDirs: [], nodeModulesDirs: [nodeModules] };
    expect(findGrammarFile("tree-sitter.wasm", search)).toBe(join(nodeModules, "web-tree-sitter/tree-sitter.wasm"));
    expect(findGrammarFile("tree-sitter-go.wasm", search)).toBe(join(nodeModules, "tree-sitter-wasms/out/tree-sitter-go.wasm"));
    expect(findGrammarFile("tree-sitter-xml.wasm", search)).toBe(join(nodeModules, "@kerebron/wasm/assets/tree-sitter-xml/tree-sitter-xml.wasm"));
    expect(findGrammarFile("tree-sitter-yaml.wasm", search)).toBe(join(nodeModules, "@kerebron/wasm/assets/tree-sitter-yaml/tree-sitter-yaml.wasm"));
    expect(findGrammarFile("tree-sitter-nope.wasm", search)).toBeNull();
  });

  it("finds the vendored Haskell grammar in the repository's grammars/ folder, the file its provenance names", () => {
    const found = findGrammarFile("tree-sitter-haskell.wasm", { grammarDirs: [join(repo, "grammars")], nodeModulesDirs: [nodeModules] });
    expect(found).toBe(join(repo, "grammars/haskell/tree-sitter-haskell.wasm"));
    const provenance = readFileSync(join(repo, "grammars/haskell/PROVENANCE.md"), "utf8");
    const sha256 = createHash("sha256").update(readFileSync(found!)).digest("hex");
    expect(provenance).toContain(`\`${sha256}\``);
  });

  it("prefers a copied grammars folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "grammars-"));
    temps.push(dir);
    writeFileSync(join(dir, "tree-sitter-go.wasm"), "x");
    expect(findGrammarFile("tree-sitter-go.wasm", { grammarDirs: [dir], nodeModulesDirs: [nodeModules] })).toBe(join(dir, "tree-sitter-go.wasm"));
  });

  it("names the missing file and the fix", async () => {
    await expect(readGrammarFile("tree-sitter-klingon.wasm")).rejects.toThrow(/tree-sitter-klingon\.wasm not found .*npm ci/);
  });
});

describe("compiling grammars", () => {
  it("compiles on the calling thread, never queued behind V8's background work on an earlier grammar", async () => {
    // The background compiler is busy for seconds optimising a big grammar's lexer once it has
    // parsed (Swift, Kotlin); a grammar handed to the asynchronous instantiate waits behind that.
    await chunkFile("warm.py", "def f():\n    return 1\n", options()); // the runtime itself loads first
    const original = WebAssembly.instantiate;
    const givenBytes: string[] = [];
    WebAssembly.instantiate = ((source: unknown, imports?: WebAssembly.Imports) => {
      if (!(source instanceof WebAssembly.Module)) givenBytes.push("bytes");
      return original.call(WebAssembly, source as BufferSource, imports);
    }) as typeof WebAssembly.instantiate;
    try {
      const swift = await chunkFile("a.swift", "struct A { var x: Int\n  func f() -> Int { return x } }\n", options());
      const ts = await chunkFile("b.ts", "export function g(a: number) {\n  return a + 1;\n}\n", options());
      expect(swift.length).toBeGreaterThan(0);
      expect(ts.length).toBeGreaterThan(0);
    } finally {
      WebAssembly.instantiate = original;
    }
    expect(givenBytes).toEqual([]);
    expect(WebAssembly.instantiate).toBe(original);
  });
});

describe("pluggable grammar source", () => {
  it("loads every grammar through the configured source", async () => {
    const asked: string[] = [];
    setGrammarSource(async (file) => {
      asked.push(file);
      return readGrammarFile(file);
    });
    const chunks = await chunkFile("m.rb", "class A\n  def b\n  end\nend\n", options());
    expect(chunks[0]).toMatchObject({ kind: "class", symbol: "A" });
    expect(asked).toContain("tree-sitter-ruby.wasm");
    setGrammarSource(async () => {
      throw new Error("offline");
    });
    // Without its grammar the file is still indexed, as line windows, and the reason is told.
    const warnings: string[] = [];
    const lines = await chunkFile("m.rb", "class A\nend\n", options(), (w) => warnings.push(`${w.filePath}: ${w.message}`));
    expect(lines).toMatchObject([{ kind: "lines", language: "ruby", startLine: 1, endLine: 2 }]);
    expect(warnings).toEqual(["m.rb: ruby chunking failed (offline); indexed as line windows"]);
    setGrammarSource(null);
    expect((await chunkFile("m.rb", "class A\nend\n", options()))[0].symbol).toBe("A");
  });

  it("keeps Node built-ins out of every portable chunking module", () => {
    const dir = join(repo, "core/chunking");
    const offenders = readdirSync(dir)
      .filter((f) => f.endsWith(".ts") && f !== "grammar-files-node.ts")
      .filter((f) => /from\s+["'](node:|fs|path|url|os|module)["'/]/.test(readFileSync(join(dir, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});

describe("from a bundle", () => {
  it("loads grammars from a grammars/ folder beside the bundle, with no node_modules around, on Node and Bun", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bundle-"));
    temps.push(dir);
    mkdirSync(join(dir, "grammars"));
    for (const f of ["tree-sitter.wasm", "tree-sitter-python.wasm"]) {
      copyFileSync(findGrammarFile(f, { grammarDirs: [], nodeModulesDirs: [nodeModules] })!, join(dir, "grammars", f));
    }
    const entry = join(dir, "entry.ts");
    writeFileSync(
      entry,
      `import { chunkFile } from ${JSON.stringify(join(repo, "core/chunking/index.ts"))};\n` +
        `import { DEFAULT_CONFIG } from ${JSON.stringify(join(repo, "core/config/defaults.ts"))};\n` +
        `const chunks = await chunkFile("a.py", "def f(x):\\n    return x\\n", DEFAULT_CONFIG.chunking);\n` +
        `console.log(JSON.stringify(chunks.map((c) => [c.kind, c.symbol, c.context])));\n`,
    );
    await build({
      entryPoints: [entry],
      outfile: join(dir, "bundle.mjs"),
      bundle: true,
      platform: "node",
      format: "esm",
      external: ["unpdf"],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: "silent",
    });
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, "bundle.mjs")], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual([["function", "f", "function f(x)"]]);
    // OpenCode runs plugin bundles under Bun: the same bundle must chunk there too.
    const bun = await promisify(execFile)(join(nodeModules, ".bin", "bun"), [join(dir, "bundle.mjs")], { cwd: dir });
    expect(JSON.parse(bun.stdout)).toEqual([["function", "f", "function f(x)"]]);
  });
});
