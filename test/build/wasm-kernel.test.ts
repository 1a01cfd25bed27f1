// The core's WebAssembly kernels are assembled from their text sources; the bytes the core
// embeds must be what each source assembles to (regenerate: node test/build/assemble-wasm.mjs --write).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { expect, it } from "vitest";
import { assembledModule, KERNELS } from "./assemble-wasm.mjs";

for (const kernel of KERNELS) {
  it(`${basename(kernel.ts)} is ${basename(kernel.wat)} assembled`, async () => {
    expect(readFileSync(kernel.ts, "utf8")).toBe(await assembledModule(kernel));
  });
}
