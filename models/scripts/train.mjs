// `npm run model:train`: vocabulary → tokenization (transformers.js) → training (PyTorch,
// Debian's python3-torch, installed with apt when missing) → ONNX → shipped at
// models/opencode-rag-code-v1/ with its licence and provenance files.
// Extra arguments go to train.py (e.g. `npm run model:train -- --epochs 4`).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MODELS, WORK } from "./common.mjs";

const PYTHON = "/usr/bin/python3";
const run = (cmd, args) => execFileSync(cmd, args, { stdio: "inherit", cwd: join(MODELS, "..") });

if (!existsSync(join(WORK, "pairs-train.jsonl"))) {
  console.error("models/.work/pairs-train.jsonl is missing: run `npm run model:data` first");
  process.exit(1);
}

function hasTorch() {
  try {
    execFileSync(PYTHON, ["-c", "import torch, onnx, numpy"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
if (!hasTorch()) {
  console.log("installing python3-torch, python3-onnx, python3-numpy with apt-get");
  run("apt-get", ["install", "-y", "--no-install-recommends", "python3-torch", "python3-onnx", "python3-numpy"]);
}

run("nice", ["-n", "10", process.execPath, join(MODELS, "scripts", "vocab.mjs")]);
run("nice", ["-n", "10", process.execPath, join(MODELS, "scripts", "tokenize.mjs")]);
run("nice", ["-n", "10", PYTHON, join(MODELS, "scripts", "train.py"), ...process.argv.slice(2)]);

run(process.execPath, [join(MODELS, "scripts", "ship.mjs")]);
