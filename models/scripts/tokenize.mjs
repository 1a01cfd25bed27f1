// Turns the training pairs into token ids the way the product does: preprocessed text of
// plain words goes through the product's own WordPiece encoder (core/embedding/wordpiece.ts,
// tested id-for-id against transformers.js, and many times faster), anything else through
// transformers.js itself — so training and inference cannot disagree on tokenization. Writes
//   .work/tokens-{q,c}.bin      int32 ids, concatenated
//   .work/tokens-{q,c}.off      int32 offsets (n+1)
//   .work/tokens-meta.json      pair kinds and languages
import { AutoTokenizer, env } from "@huggingface/transformers";
import { buildSync } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, basename, join } from "node:path";
import { loadPreprocess, readJsonlFile, STAGE, WORK } from "./common.mjs";

/** Training truncation: a bag-of-tokens model learns nothing new past this many tokens. */
const TRAIN_MAX_TOKENS = 256;

env.allowRemoteModels = false;
env.localModelPath = dirname(STAGE) + "/";
const tokenizer = await AutoTokenizer.from_pretrained(basename(STAGE));
const { preprocessForEmbedding } = await loadPreprocess();
const wpBundle = join(WORK, "wordpiece.mjs");
buildSync({ entryPoints: [join(WORK, "..", "..", "core", "embedding", "wordpiece.ts")], outfile: wpBundle, format: "esm", platform: "neutral", bundle: true, logLevel: "error" });
const { wordPieceFromTokenizerJson, encodeWordPiece } = await import(wpBundle);
const wordPiece = wordPieceFromTokenizerJson(JSON.parse(readFileSync(join(STAGE, "tokenizer.json"), "utf8")));
const PLAIN_WORDS = /^[a-z0-9 ]*$/;
const pairs = readJsonlFile(join(WORK, "pairs-train.jsonl"));

function encodeAll(texts) {
  const offsets = new Int32Array(texts.length + 1);
  const chunks = [];
  let total = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = preprocessForEmbedding(texts[i]);
    const ids = wordPiece && PLAIN_WORDS.test(text)
      ? Int32Array.from(encodeWordPiece(text, wordPiece, TRAIN_MAX_TOKENS))
      : Int32Array.from(tokenizer(text, { truncation: true, max_length: TRAIN_MAX_TOKENS }).input_ids.data, Number);
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
writeFileSync(join(WORK, "tokens-meta.json"), JSON.stringify({ kinds: pairs.map((p) => p.kind), langs: pairs.map((p) => p.lang), srcs: pairs.map((p) => p.src), files: pairs.map((p) => `${p.src}/${p.file ?? ""}`) }));
