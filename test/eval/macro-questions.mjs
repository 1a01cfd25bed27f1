#!/usr/bin/env node
// Symbol questions naming C's function-like macros: each `#define name(…)` in a tree's headers
// that is defined once (names of five letters or more, no numbered families such as
// `COMPACT_FMT_12`) is a question, answered by its `#define` lines (continuations included).
// Deterministic: the same tree and seed give the same sample.
//
// Usage: node test/eval/macro-questions.mjs SRC_DIR OUT_DIR [--max N] [--seed S]
//   writes OUT_DIR/queries.jsonl and OUT_DIR/suite.json (its root: SRC_DIR), for
//   opencode-rag eval --suite OUT_DIR/suite.json
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { prng } from "./docstring-queries.mjs";

const DEFINE = /^\s*#\s*define\s+([A-Za-z_]\w*)\(/;

function headers(root, dir = root, out = []) {
  for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(dir, name.name);
    if (name.isDirectory()) headers(root, full, out);
    else if (name.name.endsWith(".h")) out.push(relative(root, full).split(sep).join("/"));
  }
  return out;
}

/** Every function-like macro defined once in `root`'s headers, with the lines its definition spans. */
export function macroDefinitions(root) {
  const found = [];
  for (const file of headers(root)) {
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      const m = DEFINE.exec(line);
      if (!m || m[1].length < 5 || /\d$/.test(m[1])) return;
      let end = i;
      while (end < lines.length - 1 && lines[end].trimEnd().endsWith("\\")) end++;
      found.push({ name: m[1], file, startLine: i + 1, endLine: end + 1 });
    });
  }
  const count = new Map();
  for (const d of found) count.set(d.name, (count.get(d.name) ?? 0) + 1);
  return found.filter((d) => count.get(d.name) === 1);
}

export function buildMacroQuestions({ root, max = 80, seed = 7, repo = "macros" }) {
  const all = macroDefinitions(root);
  const rnd = prng(seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, max).map((d, k) => ({
    id: `macro-${String(k + 1).padStart(3, "0")}`,
    query: d.name,
    category: "symbol",
    language: "c",
    repo,
    relevant: [{ filePath: d.file, startLine: d.startLine, endLine: d.endLine }],
  }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [src, out, ...rest] = process.argv.slice(2);
  if (!src || !out) {
    console.error("usage: macro-questions.mjs SRC_DIR OUT_DIR [--max N] [--seed S]");
    process.exit(2);
  }
  const opt = (name, fallback) => (rest.includes(`--${name}`) ? Number(rest[rest.indexOf(`--${name}`) + 1]) : fallback);
  const questions = buildMacroQuestions({ root: resolve(src), max: opt("max", 80), seed: opt("seed", 7) });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "queries.jsonl"), questions.map((q) => JSON.stringify(q)).join("\n") + "\n");
  writeFileSync(join(out, "suite.json"), JSON.stringify({ sets: [{ name: "macros", root: resolve(src), queries: "queries.jsonl", repo: "macros" }] }, null, 2) + "\n");
  console.log(`${questions.length} macro questions: ${join(out, "suite.json")}`);
}
