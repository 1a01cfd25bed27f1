#!/usr/bin/env node
// Chunk-level check sets from semble-dev's checkouts: a docstring set (docstring-queries.mjs)
// from the benchmark root of every kit repository whose language the set maker reads (Python,
// JavaScript, TypeScript, Go, Rust, Ruby, Java, C#, C, C++), and a suite naming them all.
// semble-dev's questions are file level; these ask for one unit, in languages the dev suite
// lacks (Java, C#, C, C++).
// The ranking's weights are chosen on semble-dev, so these are a second check, not unseen code.
//
// Usage: node test/eval/semble-docstring.mjs [--kit DIR] [--out DIR] [--sets DIR]
//   --kit   the semble-dev kit (default ../shared/eval/semble-dev)
//   --out   where semble-dev.mjs laid the checkouts out (default test/.cache/semble-dev)
//   --sets  where the sets and suite.json go (default test/.cache/semble-docstring)
// Then: opencode-rag eval --suite <sets>/suite.json --compare bm25 default
//       node test/eval/docstring-baseline.mjs --suite <sets>/suite.json   (BM25 over 40-line windows)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDocstringSet, SET_LANGUAGES } from "./docstring-queries.mjs";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const kit = resolve(opt("kit", join(repoRoot, "..", "shared", "eval", "semble-dev")));
const out = resolve(opt("out", join(repoRoot, "test", ".cache", "semble-dev")));
const setsDir = resolve(opt("sets", join(repoRoot, "test", ".cache", "semble-docstring")));

if (!existsSync(join(kit, "repos.json"))) {
  console.error(`semble-docstring: no benchmark kit at ${kit}; pass --kit DIR (the folder holding repos.json)`);
  process.exit(2);
}
const specs = JSON.parse(readFileSync(join(kit, "repos.json"), "utf8"));
const sets = [];
for (const spec of specs) {
  if (!SET_LANGUAGES.includes(spec.language)) continue;
  const root = join(out, "repos", spec.name, spec.benchmark_root ?? "");
  if (!existsSync(root)) {
    console.error(`semble-docstring: ${root} is missing; lay the checkouts out first: node test/eval/semble-dev.mjs --mirrors DIR`);
    process.exit(2);
  }
  const dir = join(setsDir, spec.name);
  const queries = buildDocstringSet({ repo: root, out: dir, language: spec.language, repoName: spec.name });
  console.log(`${spec.name} (${spec.language}): ${queries.length} docstring queries`);
  if (queries.length > 0) sets.push({ name: "docstring", root: `${spec.name}/corpus`, queries: `${spec.name}/queries.jsonl`, repo: spec.name });
}
mkdirSync(setsDir, { recursive: true });
writeFileSync(join(setsDir, "suite.json"), JSON.stringify({ sets }, null, 2) + "\n");
console.log(`suite: ${join(setsDir, "suite.json")}`);
