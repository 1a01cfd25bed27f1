// Copies the staged model into models/<MODEL_ID>/ — exactly the files transformers.js
// loads — and writes its licence and provenance beside it, wordpiece.bin (the vocabulary
// as opencode-rag's own loader reads it fastest) and fingerprint.txt (the weights' hash).
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MODEL_ID, MODELS, SHIPPED, STAGE, WORK } from "./common.mjs";
import { writeFingerprintFile } from "./fingerprint.mjs";
import { writeWordPieceFile } from "./wordpiece.mjs";

rmSync(SHIPPED, { recursive: true, force: true });
mkdirSync(join(SHIPPED, "onnx"), { recursive: true });
for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "onnx/model.onnx"]) {
  copyFileSync(join(STAGE, f), join(SHIPPED, f));
}
const { sources } = JSON.parse(readFileSync(join(MODELS, "sources.json"), "utf8"));
// the sources that actually gave pairs (data.mjs refuses some at download: licence, availability)
const stats = existsSync(join(WORK, "data-stats.json")) ? JSON.parse(readFileSync(join(WORK, "data-stats.json"), "utf8")) : null;
const used = (s) => !stats || Object.keys(stats.sources[s.name] ?? {}).length > 2;
const train = sources.filter((s) => s.role === "train" && used(s));
writeFileSync(
  join(SHIPPED, "PROVENANCE.md"),
  [
    `# Provenance of ${MODEL_ID}`,
    "",
    "Trained from scratch by the pipeline in `models/scripts/` (no pretrained weights).",
    stats ? `${stats.pairs} training pairs (${Object.entries(stats.byKind).map(([k, n]) => `${k} ${n}`).join(", ")}) were extracted from these ${train.length} packages` : "Training pairs were extracted from these packages",
    "(kind, name, version, licence as declared by package.json or Debian's copyright file;",
    "for Debian source packages, files under another licence were left out):",
    "",
    ...train.map((s) => `- ${s.kind} ${s.name} ${s.version} — ${s.license}`),
    "",
    "The weights are a statistical summary of that code (token vectors); no source text is",
    "contained in the model files. The vocabulary in tokenizer.json lists words and word",
    "pieces seen in it; wordpiece.bin holds the same vocabulary with its lookup table.",
    "",
  ].join("\n"),
);
copyFileSync(join(MODELS, "MODEL_LICENSE"), join(SHIPPED, "LICENSE"));
// The vocabulary again, in the form the bundled model loads fast (derived from tokenizer.json).
await writeWordPieceFile(SHIPPED);
await writeFingerprintFile(SHIPPED);
console.log(`shipped ${SHIPPED}`);
