// Builds the WordPiece vocabulary from the preprocessed training texts and writes the
// tokenizer files transformers.js loads (tokenizer.json, tokenizer_config.json) into the
// stage folder. There is no Python `tokenizers` here: the JSON is written directly, in the
// BERT layout (lower-casing normaliser, whitespace/punctuation pre-tokenizer, [CLS] … [SEP]).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPreprocess, readJsonlFile, STAGE, WORK } from "./common.mjs";

/** Total vocabulary size; with 256 dims in int8 the table is 16 MiB. */
export const VOCAB_SIZE = Number(process.env.VOCAB_SIZE ?? 65536);
/** Continuation pieces (`##word`) so that unseen joined identifiers split into known words. */
const CONTINUATIONS = Number(process.env.VOCAB_CONTINUATIONS ?? 8000);
export const MAX_LENGTH = 512;

const SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

const { preprocessForEmbedding } = await loadPreprocess();
const pairs = readJsonlFile(join(WORK, "pairs-train.jsonl"));
const counts = new Map();
for (const p of pairs) {
  for (const t of [p.q, p.c]) {
    for (const w of preprocessForEmbedding(t).split(" ")) {
      if (!/^[a-z0-9]+$/.test(w)) continue; // the BERT normaliser may alter anything else
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
}
const byFreq = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
const chars = [..."abcdefghijklmnopqrstuvwxyz0123456789"];
const vocab = [...SPECIALS, ...chars, ...chars.map((c) => `##${c}`)];
const taken = new Set(vocab);
const cont = byFreq.filter(([w]) => w.length >= 2 && w.length <= 10 && !/^\d+$/.test(w)).slice(0, CONTINUATIONS);
for (const [w] of cont) {
  vocab.push(`##${w}`);
  taken.add(`##${w}`);
}
for (const [w, n] of byFreq) {
  if (vocab.length >= VOCAB_SIZE) break;
  if (n < 2 || taken.has(w) || w.length > 30) continue;
  vocab.push(w);
  taken.add(w);
}

const vocabMap = Object.fromEntries(vocab.map((t, i) => [t, i]));
const special = (t) => ({ id: vocabMap[t], content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
const tokenizer = {
  version: "1.0",
  truncation: null,
  padding: null,
  added_tokens: SPECIALS.map(special),
  normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: "BertPreTokenizer" },
  post_processor: {
    type: "TemplateProcessing",
    single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
    pair: [
      { SpecialToken: { id: "[CLS]", type_id: 0 } },
      { Sequence: { id: "A", type_id: 0 } },
      { SpecialToken: { id: "[SEP]", type_id: 0 } },
      { Sequence: { id: "B", type_id: 1 } },
      { SpecialToken: { id: "[SEP]", type_id: 1 } },
    ],
    special_tokens: {
      "[CLS]": { id: "[CLS]", ids: [vocabMap["[CLS]"]], tokens: ["[CLS]"] },
      "[SEP]": { id: "[SEP]", ids: [vocabMap["[SEP]"]], tokens: ["[SEP]"] },
    },
  },
  decoder: { type: "WordPiece", prefix: "##", cleanup: true },
  model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: vocabMap },
};
const tokenizerConfig = {
  tokenizer_class: "BertTokenizer",
  do_lower_case: true,
  model_max_length: MAX_LENGTH,
  cls_token: "[CLS]",
  sep_token: "[SEP]",
  pad_token: "[PAD]",
  unk_token: "[UNK]",
  mask_token: "[MASK]",
  clean_up_tokenization_spaces: true,
};
mkdirSync(STAGE, { recursive: true });
writeFileSync(join(STAGE, "tokenizer.json"), JSON.stringify(tokenizer));
writeFileSync(join(STAGE, "tokenizer_config.json"), JSON.stringify(tokenizerConfig, null, 2) + "\n");
writeFileSync(join(STAGE, "special_tokens_map.json"), JSON.stringify({ cls_token: "[CLS]", sep_token: "[SEP]", pad_token: "[PAD]", unk_token: "[UNK]", mask_token: "[MASK]" }, null, 2) + "\n");
console.log(`vocabulary: ${vocab.length} tokens (${cont.length} continuations) from ${counts.size} distinct words`);
