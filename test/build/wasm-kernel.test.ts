// The vector scan's WebAssembly is assembled from its text source; the bytes the core embeds
// must be what that source assembles to (regenerate: node test/build/assemble-wasm.mjs --write).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

it("core/keyword/int8-scan-wasm.ts is int8-scan.wat assembled", async () => {
  const { assembledModule } = await import("./assemble-wasm.mjs");
  const committed = readFileSync(fileURLToPath(new URL("../../core/keyword/int8-scan-wasm.ts", import.meta.url)), "utf8");
  expect(committed).toBe(await assembledModule());
});
