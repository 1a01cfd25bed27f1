// Browser tests (F35), run by playwright-test in headless Debian Chromium:
//   1. Node computes the reference: chunks of sample files in several languages and the
//      vectors of a few texts, through the built library (dist/library.js).
//   2. playwright-test runs *.browser.js in the page; they load dist/web/ and compare, and
//      drive the demo page (index a fixture folder, search, find the expected file).
// Prints "N passed, N failed" and exits non-zero on any failure.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cache = join(root, "test", ".cache", "web");
mkdirSync(cache, { recursive: true });

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  console.error(`browser tests need Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  process.exit(1);
}
if (!existsSync(join(root, "dist", "web", "opencode-rag-web.js"))) {
  console.error("dist/web is missing: run `node esbuild.config.mjs` first");
  process.exit(1);
}

const SAMPLES = ["sample.ts", "component.tsx", "app.js", "service.py", "server.go", "shapes.rs", "Account.java", "Inventory.cs", "library.rb", "theme.css", "guide.md", "settings.json"];
const TEXTS = ["where are embeddings batched", "function getUserById(id: string) { return users.get(id); }", "CSS grid layout for the header"];

const lib = await import(join(root, "dist", "library.js"));
const chunking = lib.DEFAULT_CONFIG.chunking;
const chunks = {};
for (const name of SAMPLES) {
  const path = `test/fixtures/chunking/${name}`;
  const text = readFileSync(join(root, path), "utf8");
  chunks[path] = (await lib.chunkFile(path, text, chunking)).map(({ filePath, startLine, endLine, kind, symbol, context, language }) => ({ filePath, startLine, endLine, kind, symbol, context, language }));
}
const { provider, reason } = await lib.createEmbeddingProvider(lib.DEFAULT_CONFIG, { root });
if (!provider) {
  console.error(`the bundled model did not load in Node: ${reason}`);
  process.exit(1);
}
const vectors = (await provider.embed(TEXTS, "query")).map((v) => Array.from(v));
await provider.close?.();

const repoFiles = [];
const walk = (dir) => {
  for (const e of readdirSafe(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else repoFiles.push(relative(join(root, "test", "fixtures", "repo"), p).split("\\").join("/"));
  }
};
import { readdirSync } from "node:fs";
function readdirSafe(dir) {
  return readdirSync(dir, { withFileTypes: true });
}
walk(join(root, "test", "fixtures", "repo", "src"));

writeFileSync(join(cache, "expected.json"), JSON.stringify({ model: lib.BUNDLED_MODEL_ID, chunks, texts: TEXTS, vectors, repoFiles }));

// playwright-test insists on its own browser download unless its folders look installed.
const browsers = join(cache, "pw-browsers");
for (const dir of ["chromium-1243", "chromium_headless_shell-1243"]) {
  mkdirSync(join(browsers, dir), { recursive: true });
  writeFileSync(join(browsers, dir, "INSTALLATION_COMPLETE"), "");
}
const config = join(cache, "pw.config.mjs");
writeFileSync(
  config,
  `export default { runner: "none", browserContextOptions: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] } };\n`,
);

let passed = 0;
let failed = 0;
for (const file of ["test/web/parity.browser.js", "test/web/demo.browser.js"]) {
  const r = spawnSync(join(root, "node_modules", ".bin", "playwright-test"), [file, "--runner", "none", "--config", config], {
    cwd: root,
    env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsers },
    encoding: "utf8",
    timeout: 240_000,
  });
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  process.stdout.write(out);
  const ok = /^ok /gm;
  const notOk = /^not ok /gm;
  passed += (out.match(ok) ?? []).length;
  failed += (out.match(notOk) ?? []).length + (r.status === 0 ? 0 : 1);
}
// Every check of both files must have reported: a page that never ran its checks is a failure.
const EXPECTED = SAMPLES.length + 1 + 3;
if (passed + failed < EXPECTED) failed += EXPECTED - passed - failed;
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
