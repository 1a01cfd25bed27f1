// Builds every host bundle from one place: one entry per host (CLI, library, server plugin,
// TUI plugin, web), plus the grammar files copied once to dist/grammars/ and the config's JSON
// Schema written to dist/config.schema.json.
import { build } from "esbuild";
import { existsSync, mkdirSync, copyFileSync, readdirSync, readFileSync, chmodSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dist = join(root, "dist");

// Runtime dependencies are installed beside the bundle (they ship with the package),
// transformers.js is imported only when the user installed it (other local models), and the
// native ones (LanceDB, onnxruntime-node, sharp) cannot be bundled at all.
const runtimeExternals = [...Object.keys(pkg.dependencies ?? {}), "@huggingface/transformers", "sharp", "onnxruntime-node", "@lancedb/lancedb"];

// Small pure-JS libraries every process loads (reading the config, the ignore rules) are
// compiled into the bundles instead (devDependencies): imported as packages, their resolving
// and Node's scan of their CommonJS exports cost each process ~20 ms before it could start
// (jsonc-parser alone is six files). Their licences travel in dist/ (notices below).
const inlinedLibraries = [
  ["jsonc-parser", "node_modules/jsonc-parser/LICENSE.md", "LICENSE.jsonc-parser.md"],
  ["ignore", "node_modules/ignore/LICENSE-MIT", "LICENSE.ignore.txt"],
];
for (const [name] of inlinedLibraries) {
  if (pkg.dependencies?.[name]) throw new Error(`${name} is compiled into the bundles: list it in devDependencies, not dependencies`);
}

const nodeBase = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
  external: runtimeExternals,
  // Prefer ESM builds: jsonc-parser's "main" is a UMD file whose require() calls esbuild cannot follow.
  mainFields: ["module", "main"],
  // ESM bundles still meet CommonJS code that calls require(); give it one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
};

/** Entries: [source, outfile, extra options]. */
const nodeEntries = [
  // The executable answers a query a running engine can serve, then loads the full CLI.
  ["cli/entry.ts", "cli.js", { banner: { js: "#!/usr/bin/env node\n" + nodeBase.banner.js } }],
  // Commands that pull in big libraries (mcp: the MCP SDK and the tools' schema library; usages)
  // load their code on demand from dist/cli/: every other command starts without parsing it.
  ["cli/main.ts", "cli-main.js", { splitting: true, chunkNames: "cli/[name]-[hash]" }],
  ["core/index.ts", "library.js", {}],
  ["opencode-plugin/index.ts", "plugin.js", {}],
  // Chunking worker threads of big index passes; every bundle finds it beside itself in dist/.
  ["core/indexing/chunk-worker.ts", "chunk-worker.js", {}],
];

// LanceDB's JavaScript and the Arrow it uses, as one CommonJS file every bundle loads
// (core/store/lance-table.ts): installed as packages they are ~200 files, whose resolving and
// compiling cost a searching process ~100 ms before it could open a table; one file costs
// about half. Only the native library stays a package (required by the platform's name).
const lanceJs = {
  file: "lancedb-js.cjs", // where core/paths.ts lanceJsFile() looks
  source: "module.exports = { lancedb: require('@lancedb/lancedb'), arrow: require('apache-arrow') };",
  // Both Apache-2.0; their notices travel with the file.
  notices: [
    ["node_modules/apache-arrow/LICENSE.txt", "LICENSE.apache-arrow.txt"],
    ["node_modules/apache-arrow/NOTICE.txt", "NOTICE.apache-arrow.txt"],
    ["node_modules/@lancedb/lancedb/license_header.txt", "LICENSE.lancedb.txt"],
  ],
};

async function buildLanceJs() {
  await build({
    stdin: { contents: lanceJs.source, resolveDir: root, loader: "js", sourcefile: "lancedb-js-entry.cjs" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "warning",
    outfile: join(dist, lanceJs.file),
    external: ["@lancedb/lancedb-*", "*.node"],
  });
  copyNotices(lanceJs.notices);
}

/** Copies the licence files of third-party code built into dist/ beside it: [from, name in dist]. */
function copyNotices(notices) {
  for (const [from, name] of notices) copyFileSync(join(root, from), join(dist, name));
}

// The TUI plugin runs inside OpenCode's process: Solid JSX is compiled for OpenTUI's universal
// renderer, and the host's own solid-js / OpenTUI / plugin instances must be used (one reactive
// runtime, one renderer), so those stay external; everything else is bundled in.
const tuiEntry = ["tui/index.tsx", "tui.js"];
const tuiHostModules = ["solid-js", "solid-js/*", "@opentui/*", "@opencode-ai/plugin", "@opencode-ai/plugin/*"];

async function buildTui() {
  if (!existsSync(join(root, tuiEntry[0]))) throw new Error(`entry ${tuiEntry[0]} is missing`);
  const { solidPlugin } = await import("esbuild-plugin-solid");
  await build({
    ...nodeBase,
    external: tuiHostModules,
    entryPoints: [join(root, tuiEntry[0])],
    outfile: join(dist, tuiEntry[1]),
    plugins: [solidPlugin({ solid: { generate: "universal", moduleName: "@opentui/solid" } })],
  });
}

// The browser build of the core's search path (F35). The guard fails the build when anything
// in our import graph reaches a Node built-in. Third-party runtimes that merely probe for Node
// (web-tree-sitter, onnxruntime-web) get empty stand-ins; so does the Node grammar reader,
// which the page replaces with an HTTP grammar source.
const webEntry = ["core/web/index.ts", "web/opencode-rag-web.js"];
const NODE_BUILTIN = /^(node:)?(assert|buffer|child_process|crypto|dns|events|fs|fs\/promises|http|https|module|net|os|path|perf_hooks|process|readline|stream|string_decoder|tls|url|util|v8|vm|worker_threads|zlib)$/;
const PROBING_RUNTIMES = /node_modules[\\/](web-tree-sitter|onnxruntime-web|onnxruntime-common|@huggingface[\\/]transformers)[\\/]/;

const noNodeBuiltins = {
  name: "no-node-builtins",
  setup(b) {
    b.onResolve({ filter: /grammar-files-node\.js$/ }, () => ({ path: "grammar-files-node", namespace: "web-stub" }));
    b.onResolve({ filter: NODE_BUILTIN }, (args) => {
      if (PROBING_RUNTIMES.test(args.importer)) return { path: args.path, namespace: "web-stub" };
      return { errors: [{ text: `Node built-in "${args.path}" imported by ${args.importer.replace(root + "/", "")}: the browser build must stay free of Node APIs (move that code behind a Node-only module)` }] };
    });
    b.onLoad({ filter: /.*/, namespace: "web-stub" }, () => ({ contents: "export default {};", loader: "js" }));
  },
};

async function buildWeb() {
  if (!existsSync(join(root, webEntry[0]))) throw new Error(`entry ${webEntry[0]} is missing`);
  await build({
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    sourcemap: "linked",
    logLevel: "error",
    entryPoints: [join(root, webEntry[0])],
    outfile: join(dist, webEntry[1]),
    // unpdf is only reached for .pdf files, which the page does not offer.
    external: ["unpdf", "sharp"],
    plugins: [noNodeBuiltins],
  });
  const demo = join(root, "docs", "web");
  if (existsSync(demo)) for (const f of readdirSync(demo)) copyFileSync(join(demo, f), join(dist, "web", f));
}

/** Deletes the files in `folder` that the build described by `metafile` did not write. */
function removeStaleChunks(folder, metafile) {
  const written = new Set(Object.keys(metafile.outputs).map((p) => join(root, p)));
  for (const f of readdirSync(folder)) if (!written.has(join(folder, f))) rmSync(join(folder, f));
}

/** Copies grammar .wasm files once into dist/grammars; every bundle loads them from there. */
function copyGrammars() {
  const out = join(dist, "grammars");
  mkdirSync(out, { recursive: true });
  const sources = [
    [join(root, "node_modules/web-tree-sitter/tree-sitter.wasm"), "tree-sitter.wasm"],
  ];
  const tsw = join(root, "node_modules/tree-sitter-wasms/out");
  if (existsSync(tsw)) for (const f of readdirSync(tsw)) if (f.endsWith(".wasm")) sources.push([join(tsw, f), f]);
  // @kerebron/wasm keeps one folder per grammar (assets/tree-sitter-xml/tree-sitter-xml.wasm).
  // Only the grammars tree-sitter-wasms lacks (or ships broken: yaml) come from it; they are
  // listed after tree-sitter-wasms so they win.
  const kerebron = join(root, "node_modules/@kerebron/wasm/assets");
  const kerebronFiles = {
    "tree-sitter-markdown": ["tree-sitter-markdown.wasm", "tree-sitter-markdown_inline.wasm"],
    "tree-sitter-xml": ["tree-sitter-xml.wasm", "tree-sitter-dtd.wasm"],
    "tree-sitter-yaml": ["tree-sitter-yaml.wasm"],
  };
  for (const [folder, files] of Object.entries(kerebronFiles)) {
    for (const f of files) sources.push([join(kerebron, folder, f), f]);
  }
  // Grammars vendored in the repository (grammars/<name>/, see its PROVENANCE.md): no package
  // ships them without a native install. Each folder's grammars, and its licence beside them.
  const vendored = join(root, "grammars");
  for (const folder of readdirSync(vendored, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
    for (const file of readdirSync(join(vendored, folder)).filter((f) => f.endsWith(".wasm"))) sources.push([join(vendored, folder, file), file]);
    sources.push([join(vendored, folder, "LICENSE"), `LICENSE.tree-sitter-${folder}`]);
  }
  // Licences travel with the grammar files they cover.
  for (const pkg of ["web-tree-sitter", "tree-sitter-wasms", "@kerebron/wasm"]) {
    sources.push([join(root, "node_modules", pkg, "LICENSE"), `LICENSE.${pkg.replace("/", "-").replace("@", "")}`]);
  }
  // A grammar missing from node_modules is a broken install: fail the build, never ship without it.
  const missing = sources.filter(([from]) => !existsSync(from)).map(([from]) => from.replace(root + "/", ""));
  if (missing.length > 0) throw new Error(`grammar files missing (run npm ci; vendored ones live in grammars/): ${missing.join(", ")}`);
  for (const [from, name] of sources) copyFileSync(from, join(out, name));
}

/** Each config key's doc comment in core/config/defaults.ts, by dotted path ("retrieval.topK"). */
export async function configKeyDocs() {
  const { default: ts } = await import("typescript");
  const file = join(root, "core", "config", "defaults.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const docs = {};
  const visit = (literal, prefix) => {
    for (const prop of literal.properties) {
      if (!ts.isPropertyAssignment(prop)) continue;
      const path = (prefix ? prefix + "." : "") + (ts.isStringLiteral(prop.name) ? prop.name.text : prop.name.getText(source));
      const comments = ts.getJSDocCommentsAndTags(prop).filter((d) => ts.isJSDoc(d));
      const text = comments.map((d) => ts.getTextOfJSDocComment(d.comment) ?? "").join(" ").replace(/\s+/g, " ").trim();
      if (text) docs[path] = text;
      let value = prop.initializer;
      while (ts.isAsExpression(value) || ts.isSatisfiesExpression(value)) value = value.expression;
      if (ts.isObjectLiteralExpression(value)) visit(value, path);
    }
  };
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (d.name.getText(source) === "DEFAULT_CONFIG" && d.initializer && ts.isObjectLiteralExpression(d.initializer)) visit(d.initializer, "");
    }
  }
  if (Object.keys(docs).length === 0) throw new Error("no documented keys found in DEFAULT_CONFIG of core/config/defaults.ts");
  return docs;
}

/** The config's JSON Schema as the package ships it: built from core/config/schema.ts, never edited by hand. */
export async function configSchemaText() {
  const bundled = await build({ entryPoints: [join(root, "core", "config", "schema.ts")], bundle: true, write: false, format: "esm", platform: "neutral", logLevel: "error" });
  const { configSchema, CONFIG_SCHEMA_FILE } = await import("data:text/javascript;base64," + Buffer.from(bundled.outputFiles[0].text).toString("base64"));
  return { file: CONFIG_SCHEMA_FILE, text: JSON.stringify(configSchema(await configKeyDocs()), null, 2) + "\n" };
}

async function writeConfigSchema() {
  const { file, text } = await configSchemaText();
  writeFileSync(join(dist, file), text);
}

async function main() {
  mkdirSync(dist, { recursive: true });
  copyGrammars();
  copyNotices(inlinedLibraries.map(([, from, name]) => [from, name]));
  const jobs = [];
  for (const [src, out, extra] of nodeEntries) {
    if (!existsSync(join(root, src))) throw new Error(`entry ${src} is missing`);
    if (!extra.splitting) {
      jobs.push(build({ ...nodeBase, ...extra, entryPoints: [join(root, src)], outfile: join(dist, out) }));
      continue;
    }
    // A split bundle is named by its entry, its chunks written beside it; chunks of earlier
    // builds are removed after this one is written (a CLI running meanwhile keeps working).
    const entryPoints = { [out.replace(/\.js$/, "")]: join(root, src) };
    jobs.push(build({ ...nodeBase, ...extra, entryPoints, outdir: dist, metafile: true }).then(({ metafile }) => removeStaleChunks(join(dist, dirname(extra.chunkNames)), metafile)));
  }
  jobs.push(buildLanceJs());
  jobs.push(buildTui());
  jobs.push(buildWeb());
  jobs.push(writeConfigSchema());
  await Promise.all(jobs);
  if (existsSync(join(dist, "cli.js"))) chmodSync(join(dist, "cli.js"), 0o755);
}

export { noNodeBuiltins, nodeBase };

// Run as a script (`node esbuild.config.mjs`); importing it (tests) only exposes the guard.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(`build failed: ${err.message}`);
    process.exit(1);
  });
}
