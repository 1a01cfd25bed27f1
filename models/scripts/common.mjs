// Shared by the pipeline scripts: paths, and the product's own modules bundled on the fly
// (core/embedding/preprocess.ts, so that training sees exactly the text the product embeds;
// the vocabulary and fingerprint writers).
import { buildSync } from "esbuild";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const MODELS = new URL("..", import.meta.url).pathname;
export const WORK = join(MODELS, ".work");
export const MODEL_ID = "opencode-rag-code-v2";
/** Where train.py writes a candidate model; eval reads it from here before it is shipped. */
export const STAGE = join(WORK, "stage");
export const SHIPPED = join(MODELS, MODEL_ID);

/**
 * Imports a TypeScript module of core/ (`rel` below it) by bundling it into .work, where
 * packages resolve from the repository's node_modules.
 */
export async function importCore(rel, platform = "neutral") {
  mkdirSync(WORK, { recursive: true });
  const out = join(WORK, `${rel.replace(/[/.]/g, "-")}.mjs`);
  buildSync({ entryPoints: [join(MODELS, "..", "core", rel)], outfile: out, format: "esm", platform, bundle: true, packages: "external", logLevel: "error" });
  return import(`${out}?t=${Date.now()}`);
}

/** core/embedding/preprocess.ts, the product's own preprocessing. */
export function loadPreprocess() {
  return importCore("embedding/preprocess.ts");
}

export function readJsonl(text) {
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** The objects of a JSON-lines file too large for one string: read as bytes, parsed line by line. */
export function readJsonlFile(file) {
  const buf = readFileSync(file);
  const out = [];
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    if (end > start) out.push(JSON.parse(buf.toString("utf8", start, end)));
    start = end + 1;
  }
  return out;
}
