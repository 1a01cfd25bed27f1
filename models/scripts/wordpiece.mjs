// Writes a model folder's wordpiece.bin: its tokenizer.json's WordPiece vocabulary with its
// lookup table built (core/embedding/wordpiece.ts, wordPieceFileBytes), which loads in a few
// milliseconds where the JSON takes a tenth of a second. ship.mjs runs it for the shipped model;
// by hand:
//   node models/scripts/wordpiece.mjs [MODEL_FOLDER]   (default: the shipped model)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importCore, SHIPPED } from "./common.mjs";

export async function writeWordPieceFile(folder) {
  const { wordPieceFileBytes, WORDPIECE_FILE } = await importCore("embedding/wordpiece.ts");
  const bytes = wordPieceFileBytes(JSON.parse(readFileSync(join(folder, "tokenizer.json"), "utf8")));
  if (!bytes) throw new Error(`${folder}/tokenizer.json is not a plain BERT WordPiece tokenizer: no ${WORDPIECE_FILE} written`);
  writeFileSync(join(folder, WORDPIECE_FILE), bytes);
  return join(folder, WORDPIECE_FILE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`wrote ${await writeWordPieceFile(process.argv[2] ?? SHIPPED)}`);
}
