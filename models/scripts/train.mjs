// `npm run model:train`: vocabulary → tokenization → (with --fasttext: fastText vectors as
// the table's starting point) → training (PyTorch, Debian's python3-torch, installed with apt
// when missing) → ONNX → shipped at models/<MODEL_ID>/ with its licence and provenance files.
// Other arguments go to train.py (e.g. `npm run model:train -- --epochs 4`); --no-ship
// leaves the candidate in .work/stage for `npm run model:eval -- --stage`.
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

const args = process.argv.slice(2);
const fasttext = args.includes("--fasttext");
const ship = !args.includes("--no-ship");
const pyArgs = args.filter((a) => a !== "--fasttext" && a !== "--no-ship");
// the pair file holds over a million pairs: more heap than Node's default
const node = [process.execPath, "--max-old-space-size=12000"];
run("nice", ["-n", "10", ...node, join(MODELS, "scripts", "vocab.mjs")]);
run("nice", ["-n", "10", ...node, join(MODELS, "scripts", "tokenize.mjs")]);
if (fasttext) {
  run("nice", ["-n", "10", ...node, join(MODELS, "scripts", "fasttext.mjs")]);
  pyArgs.push("--init-vectors", join(WORK, "fasttext-vocab.vec"));
}
run("nice", ["-n", "10", PYTHON, join(MODELS, "scripts", "train.py"), ...pyArgs]);

if (ship) run(process.execPath, [join(MODELS, "scripts", "ship.mjs")]);
