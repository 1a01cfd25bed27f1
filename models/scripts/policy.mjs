// What the training data may contain. Two rules: permissive licences only, and never a code
// base that is reserved for evaluating the product (matched by project, whatever the
// packaging: npm name, Debian name, any version).

/** Licence identifiers accepted for training data. */
export const PERMISSIVE = new Set([
  "MIT",
  "ISC",
  "BSD-2-Clause",
  "BSD-3-Clause",
  "Apache-2.0",
  "PSF-2.0",
  "Zlib",
  "public-domain",
  "0BSD",
  "Unlicense",
]);

/** Projects reserved for evaluation; a source whose project name matches one is refused. */
export const HELD_OUT = [
  "rxjs", "eslint", "networkx", "client_golang", "prometheus", "tokio", "activesupport",
  "commons-lang", "newtonsoft.json", "newtonsoft-json", "medusa",
  "aiohttp", "fastapi", "flask", "httpx", "model2vec", "pydantic", "requests", "starlette",
  "click", "axios", "express", "redux", "gin", "cobra", "chi", "gson", "jackson-databind",
  "guzzle", "monolog", "laravel", "sinatra", "rack", "rails", "serde", "axum", "trpc", "zod",
  "vitest", "messagepack-csharp", "dapper", "ktor", "kotlinx-coroutines", "exposed", "cats",
  "circe", "http4s", "alamofire", "vapor", "rxswift", "nlohmann-json", "abseil", "fmt",
  "fmtlib", "curl", "redis", "libuv", "phoenix", "plug", "ecto", "bats-core", "bats", "nvm",
  "bash-it", "aeson", "pandoc", "xmonad", "telescope.nvim", "lazy.nvim", "mini.nvim", "zig",
  "zls", "zig-clap",
];

const norm = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");

/** Debian packages of the Go standard library (the Go source tree), refused by exact name. */
const GO_TREE = /^golang(?:-\d+(?:\.\d+)*)?-(?:go|src|doc)$/;

/** The project behind a package name: `python3-foo` → foo, `golang-github-a-b-dev` → b, `@s/x` → x. */
export function projectName(pkg) {
  let n = pkg.toLowerCase().replace(/^@[^/]+\//, "");
  n = n.replace(/^(?:python3?|ruby|node|librust|lib)-/, "").replace(/-dev$/, "");
  const go = n.match(/^golang-(?:github|gitlab|golang|gopkg|google)?-?(?:[^-]+-)?(.+)$/);
  if (go) n = go[1];
  n = n.replace(/^golang-/, "");
  return n;
}

/** True when a package belongs to a held-out project. */
export function isHeldOut(pkg) {
  const whole = norm(pkg);
  const project = norm(projectName(pkg));
  if (GO_TREE.test(pkg.toLowerCase())) return true;
  const segments = new Set(pkg.toLowerCase().split(/[-_/@]+/).map(norm));
  return HELD_OUT.some((h) => {
    const k = norm(h);
    // short names match a whole name segment (so `chi` catches `go-chi-chi` but not `archive`);
    // long ones anywhere in the name
    return project === k || segments.has(k) || (k.length >= 6 && whole.includes(k));
  });
}
