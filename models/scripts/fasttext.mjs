// Optional starting point for the token table (`npm run model:train -- --fasttext`): trains
// fastText subword skip-gram vectors (Debian's `fasttext`, installed with apt when missing) on
// the preprocessed training texts, then writes one vector per vocabulary token to
// .work/fasttext-vocab.vec for train.py --init-vectors. A continuation piece (`##ing`) takes
// the vector fastText builds for the bare piece from its character n-grams.
import { execFileSync, spawnSync } from "node:child_process";
import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPreprocess, readJsonlFile, STAGE, WORK } from "./common.mjs";

const DIM = Number(process.env.FASTTEXT_DIM ?? 256);
const EPOCHS = Number(process.env.FASTTEXT_EPOCHS ?? 1);

if (spawnSync("fasttext", [], { stdio: "ignore" }).error) {
  console.log("installing fasttext with apt-get");
  execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "fasttext"], { stdio: "inherit" });
}

const { preprocessForEmbedding } = await loadPreprocess();
const corpus = join(WORK, "fasttext-corpus.txt");
const out = createWriteStream(corpus);
for (const p of readJsonlFile(join(WORK, "pairs-train.jsonl"))) {
  if (!out.write(`${preprocessForEmbedding(p.q)}\n${preprocessForEmbedding(p.c)}\n`)) await new Promise((r) => out.once("drain", r));
}
await new Promise((r) => out.end(r));

const model = join(WORK, "fasttext");
const t0 = Date.now();
execFileSync("fasttext", ["skipgram", "-input", corpus, "-output", model, "-dim", String(DIM), "-epoch", String(EPOCHS), "-minCount", "3", "-minn", "3", "-maxn", "6", "-thread", "2", "-ws", "5", "-verbose", "1"], { stdio: "inherit" });
console.log(`fastText: ${((Date.now() - t0) / 1000).toFixed(0)} s`);

const vocab = Object.keys(JSON.parse(readFileSync(join(STAGE, "tokenizer.json"), "utf8")).model.vocab).filter((t) => !/^\[.*\]$/.test(t));
const words = vocab.map((t) => t.replace(/^##/, ""));
const vecs = execFileSync("fasttext", ["print-word-vectors", `${model}.bin`], { input: words.join("\n") + "\n", encoding: "utf8", maxBuffer: 1 << 30 }).trim().split("\n");
if (vecs.length !== vocab.length) throw new Error(`fasttext returned ${vecs.length} vectors for ${vocab.length} tokens`);
const lines = vecs.map((l, i) => `${vocab[i]} ${l.trim().split(" ").slice(1).join(" ")}`);
writeFileSync(join(WORK, "fasttext-vocab.vec"), `${lines.length} ${DIM}\n${lines.join("\n")}\n`);
console.log(`wrote ${lines.length} token vectors to .work/fasttext-vocab.vec`);
