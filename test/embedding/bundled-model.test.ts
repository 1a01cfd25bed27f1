// The model that ships in the package: the layout transformers.js loads offline, within the
// size and dimension bounds the product promises, with its licence and provenance beside it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_MODEL_ID } from "../../core/config/defaults.js";
import { IDENTIFIER_PREPROCESS } from "../../core/embedding/preprocess.js";
import { modelsDir } from "../../core/paths.js";
// @ts-expect-error plain ESM script of the model pipeline, no type declarations
import { PERMISSIVE } from "../../models/scripts/policy.mjs";

const dir = join(modelsDir(), BUNDLED_MODEL_ID);

function folderBytes(d: string): number {
  return readdirSync(d, { recursive: true })
    .map((p) => join(d, String(p)))
    .filter((p) => statSync(p).isFile())
    .reduce((s, p) => s + statSync(p).size, 0);
}

describe("bundled model folder", () => {
  it("has every file transformers.js needs, plus licence and provenance", () => {
    for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx", "LICENSE", "PROVENANCE.md"]) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
  });

  it("stays within 32 MB and 512 dimensions", () => {
    expect(folderBytes(dir)).toBeLessThanOrEqual(32 * 1024 * 1024);
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    expect(config.hidden_size).toBeGreaterThan(0);
    expect(config.hidden_size).toBeLessThanOrEqual(512);
  });

  it("declares the preprocessing it was trained with, and a vocabulary that fits its table", () => {
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    expect(config.opencode_rag.preprocess).toBe(IDENTIFIER_PREPROCESS);
    const vocab = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")).model.vocab as Record<string, number>;
    expect(Math.max(...Object.values(vocab)) + 1).toBe(config.vocab_size);
  });

  it("names only permissively licensed training sources", () => {
    const provenance = readFileSync(join(dir, "PROVENANCE.md"), "utf8");
    const lines = provenance.split("\n").filter((l) => l.startsWith("- "));
    expect(lines.length).toBeGreaterThan(10);
    for (const l of lines) {
      const licence = l.split(" — ").pop() ?? "";
      for (const id of licence.split(/\s+(?:AND|OR)\s+/)) expect(PERMISSIVE.has(id.replace(/[()]/g, "")), l).toBe(true);
    }
  });
});
