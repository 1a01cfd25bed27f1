// Assembles the core's WebAssembly kernels from their text sources with wabt (a development
// dependency) into the .ts files that embed their bytes (so the core needs no .wasm file and no
// assembler, in Node, Bun and browsers alike). `--write` regenerates those files; without it,
// prints whether each is current. Used by test/build/wasm-kernel.test.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import wabtInit from "wabt";

/** Each kernel: its text source, the file embedding its bytes, and the constant naming them. */
export const KERNELS = [
  ["core/keyword/int4-scan.wat", "core/keyword/int4-scan-wasm.ts", "INT4_SCAN_WASM"],
  ["core/embedding/token-sum.wat", "core/embedding/token-sum-wasm.ts", "TOKEN_SUM_WASM"],
].map(([wat, ts, name]) => ({ wat: fromRoot(wat), ts: fromRoot(ts), name }));

function fromRoot(path) {
  return fileURLToPath(new URL(`../../${path}`, import.meta.url));
}

/** The text of the .ts file embedding `kernel`'s assembled bytes. */
export async function assembledModule(kernel) {
  const wabt = await wabtInit();
  const module = wabt.parseWat(basename(kernel.wat), readFileSync(kernel.wat, "utf8"), { simd: true });
  try {
    const { buffer } = module.toBinary({});
    const base64 = Buffer.from(buffer).toString("base64");
    return (
      `// Generated from ${basename(kernel.wat)} by test/build/assemble-wasm.mjs --write; do not edit.\n` +
      `export const ${kernel.name} = "${base64}";\n`
    );
  } finally {
    module.destroy();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const kernel of KERNELS) {
    const text = await assembledModule(kernel);
    if (process.argv.includes("--write")) {
      writeFileSync(kernel.ts, text);
      console.log(`wrote ${kernel.ts}`);
    } else {
      console.log(`${basename(kernel.ts)}: ${readFileSync(kernel.ts, "utf8") === text ? "current" : "stale: run with --write"}`);
    }
  }
}
