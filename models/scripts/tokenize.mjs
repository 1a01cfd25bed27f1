// Turns the training pairs into token ids with transformers.js itself — the tokenizer the
// product runs — so training and inference cannot disagree on tokenization. Writes
//   .work/tokens-{q,c}.bin      int32 ids, concatenated
//   .work/tokens-{q,c}.off      int32 offsets (n+1)
//   .work/tokens-meta.json      pair kinds and languages
import { AutoTokenizer, env } from "@huggingface/transformers";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, basename, join } from "node:path";
import { loadPreprocess, readJsonl, STAGE, WORK } from "./common.mjs";

/** Training truncation: a bag-of-tokens model learns nothing new past this many tokens. */
const TRAIN_MAX_TOKENS = 256;

env.allowRemoteModels = false;
env.localModelPath = dirname(STAGE) + "/";
const tokenizer = await AutoTokenizer.from_pretrained(basename(STAGE));
const { preprocessForEmbedding } = await loadPreprocess();
const pairs = readJsonl(readFileSync(join(WORK, "pairs-train.jsonl"), "utf8"));

function encodeAll(texts) {
  const offsets = new Int32Array(texts.length + 1);
  const chunks = [];
  let total = 0;
  for (let i = 0; i < texts.length; i++) {
    const { input_ids } = tokenizer(preprocessForEmbedding(texts[i]), { truncation: true, max_length: TRAIN_MAX_TOKENS });
    const ids = Int32Array.from(input_ids.data, Number);
    chunks.push(ids);
    total += ids.length;
    offsets[i + 1] = total;
  }
  const flat = new Int32Array(total);
  let o = 0;
  for (const c of chunks) {
    flat.set(c, o);
    o += c.length;
  }
  return { flat, offsets };
}

for (const side of ["q", "c"]) {
  const t0 = Date.now();
  const { flat, offsets } = encodeAll(pairs.map((p) => p[side]));
  writeFileSync(join(WORK, `tokens-${side}.bin`), Buffer.from(flat.buffer));
  writeFileSync(join(WORK, `tokens-${side}.off`), Buffer.from(offsets.buffer));
  console.log(`${side}: ${pairs.length} texts, ${flat.length} tokens, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
writeFileSync(join(WORK, "tokens-meta.json"), JSON.stringify({ kinds: pairs.map((p) => p.kind), langs: pairs.map((p) => p.lang), srcs: pairs.map((p) => p.src) }));
