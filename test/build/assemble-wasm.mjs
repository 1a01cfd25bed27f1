// Assembles core/keyword/int8-scan.wat with wabt (a development dependency) into the bytes
// core/keyword/int8-scan-wasm.ts embeds (so the core needs no .wasm file and no assembler,
// in Node, Bun and browsers alike). `--write` regenerates that file; without it, prints
// whether it is current. Used by test/build/wasm-kernel.test.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import wabtInit from "wabt";

const source = fileURLToPath(new URL("../../core/keyword/int8-scan.wat", import.meta.url));
const target = fileURLToPath(new URL("../../core/keyword/int8-scan-wasm.ts", import.meta.url));

export async function assembledModule() {
  const wabt = await wabtInit();
  const module = wabt.parseWat("int8-scan.wat", readFileSync(source, "utf8"), { simd: true });
  try {
    const { buffer } = module.toBinary({});
    const base64 = Buffer.from(buffer).toString("base64");
    return (
      "// Generated from int8-scan.wat by test/build/assemble-wasm.mjs --write; do not edit.\n" +
      `export const INT8_SCAN_WASM = "${base64}";\n`
    );
  } finally {
    module.destroy();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await assembledModule();
  if (process.argv.includes("--write")) {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  } else {
    console.log(readFileSync(target, "utf8") === text ? "current" : "stale: run with --write");
  }
}
