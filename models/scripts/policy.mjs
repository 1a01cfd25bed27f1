// What the training data may contain. Two rules: permissive licences only, and never a code
// base that is reserved for evaluating the product (matched by project, whatever the
// packaging: npm name, Debian name, any version). The reserved list is the one written here
// plus, when the evaluation kits are present, every name in ../shared/eval/HELD_OUT.txt and
// every repository of the semble-dev kit (repos.json), so that a later addition there is
// enforced without editing this file.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

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
  "BSL-1.0",
  "CC0-1.0",
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
  "zls", "zig-clap", "absl",
];

const SHARED_EVAL = join(new URL("../../..", import.meta.url).pathname, "shared", "eval");

/** Project names of HELD_OUT.txt (one per line; `#` comments; "a (b)" and "owner/name" give both words). */
export function heldOutFromText(text) {
  const out = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) continue;
    for (const part of line.split(/[()]/).map((p) => p.trim()).filter(Boolean)) {
      out.push(part.split(/\s+/).pop().split("/").pop());
      if (part.includes("/")) out.push(part.split("/").pop());
    }
  }
  return out.filter((n) => !["library", "tree", "framework", "standard", "source"].includes(n.toLowerCase()));
}

/** Repository names of a semble-style repos.json: the `name` and the last segment of the URL. */
export function heldOutFromRepos(json) {
  return JSON.parse(json).flatMap((r) => [r.name, String(r.url ?? "").replace(/\.git$/, "").split("/").pop()].filter(Boolean));
}

const extra = [];
if (existsSync(join(SHARED_EVAL, "HELD_OUT.txt"))) extra.push(...heldOutFromText(readFileSync(join(SHARED_EVAL, "HELD_OUT.txt"), "utf8")));
if (existsSync(join(SHARED_EVAL, "semble-dev", "repos.json"))) extra.push(...heldOutFromRepos(readFileSync(join(SHARED_EVAL, "semble-dev", "repos.json"), "utf8")));
for (const n of extra) if (!HELD_OUT.includes(n.toLowerCase())) HELD_OUT.push(n.toLowerCase());

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

/**
 * True when a file path inside a training package runs through a folder named after a
 * held-out project (a vendored copy: `deps/redis/`, `third_party/fmt/`).
 */
export function isHeldOutPath(path) {
  const dirs = path.toLowerCase().split("/").slice(0, -1).map(norm);
  return dirs.some((d) => d.length >= 3 && HELD_OUT.some((h) => norm(h) === d));
}

/** True when a package belongs to a held-out project. */
export function isHeldOut(pkg) {
  const whole = norm(pkg);
  const project = norm(projectName(pkg));
  if (GO_TREE.test(pkg.toLowerCase())) return true;
  // Debian C/C++ library packages: libcurl4-openssl-dev, libuv1-dev, libfmt-dev: the segment
  // also counts without its "lib" prefix and without its trailing soname digits
  const raw = pkg.toLowerCase().split(/[-_/@]+/).map(norm);
  const segments = new Set(raw.flatMap((seg) => {
    const bare = seg.replace(/\d+$/, "");
    return [seg, bare, bare.replace(/^lib(?=[a-z]{2})/, "")];
  }));
  return HELD_OUT.some((h) => {
    const k = norm(h);
    // short names match a whole name segment (so `chi` catches `go-chi-chi` but not `archive`);
    // long ones anywhere in the name
    return project === k || segments.has(k) || (k.length >= 6 && whole.includes(k));
  });
}
