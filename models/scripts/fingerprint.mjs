// Writes a model folder's fingerprint.txt: the hash of its weights and tokenizer that indexes
// record, and a cheap sampled digest that vouches for it (core/embedding/local.ts,
// fingerprintRecord), so that loading the shipped model need not read and hash 19 MB at every
// index pass. ship.mjs runs it for the shipped model; by hand:
//   node models/scripts/fingerprint.mjs [MODEL_FOLDER]   (default: the shipped model)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importCore, SHIPPED } from "./common.mjs";

export async function writeFingerprintFile(folder) {
  const { fingerprintRecord, FINGERPRINT_FILE } = await importCore("embedding/local.ts", "node");
  writeFileSync(join(folder, FINGERPRINT_FILE), fingerprintRecord(folder) + "\n");
  return join(folder, FINGERPRINT_FILE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`wrote ${await writeFingerprintFile(process.argv[2] ?? SHIPPED)}`);
}
