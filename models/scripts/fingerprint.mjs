// Writes a model folder's fingerprint.txt: the hash of its weights and tokenizer that indexes
// record, and a cheap sampled digest that vouches for it (core/embedding/local.ts,
// fingerprintRecord), so that loading the shipped model need not read and hash 19 MB at every
// index pass. ship.mjs runs it for the shipped model; by hand:
//   node models/scripts/fingerprint.mjs [MODEL_FOLDER]   (default: the shipped model)
import { buildSync } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SHIPPED } from "./common.mjs";

export async function writeFingerprintFile(folder) {
  const work = mkdtempSync(join(tmpdir(), "rag-fingerprint-"));
  try {
    const bundle = join(work, "local.mjs");
    const source = fileURLToPath(new URL("../../core/embedding/local.ts", import.meta.url));
    buildSync({ entryPoints: [source], outfile: bundle, format: "esm", platform: "node", bundle: true, packages: "external", logLevel: "error" });
    const { fingerprintRecord, FINGERPRINT_FILE } = await import(pathToFileURL(bundle).href);
    writeFileSync(join(folder, FINGERPRINT_FILE), fingerprintRecord(folder) + "\n");
    return join(folder, FINGERPRINT_FILE);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`wrote ${await writeFingerprintFile(process.argv[2] ?? SHIPPED)}`);
}
