// Copies the staged model into models/opencode-rag-code-v1/ — exactly the files transformers.js
// loads — and writes its licence and provenance beside it.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MODELS, SHIPPED, STAGE } from "./common.mjs";

rmSync(SHIPPED, { recursive: true, force: true });
mkdirSync(join(SHIPPED, "onnx"), { recursive: true });
for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "onnx/model.onnx"]) {
  copyFileSync(join(STAGE, f), join(SHIPPED, f));
}
const { sources } = JSON.parse(readFileSync(join(MODELS, "sources.json"), "utf8"));
const train = sources.filter((s) => s.role === "train");
writeFileSync(
  join(SHIPPED, "PROVENANCE.md"),
  [
    "# Provenance of opencode-rag-code-v1",
    "",
    "Trained from scratch by the pipeline in `models/scripts/` (no pretrained weights).",
    "Training pairs were extracted from these packages (name, version, declared licence):",
    "",
    ...train.map((s) => `- ${s.kind} ${s.name} ${s.version} — ${s.license}`),
    "",
    "The weights are a statistical summary of that code (token vectors); no source text is",
    "contained in the model files. The vocabulary in tokenizer.json lists words and word",
    "pieces seen in it.",
    "",
  ].join("\n"),
);
copyFileSync(join(MODELS, "MODEL_LICENSE"), join(SHIPPED, "LICENSE"));
console.log(`shipped ${SHIPPED}`);
