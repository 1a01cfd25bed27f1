// The core's WebAssembly kernels, compiled from the base64 text their generated .ts files embed
// (no .wasm file to find, in Node, Bun and browsers alike), for every tier of the engine (they
// are small and hot: core/wasm-tiers.ts). Portable: no Node built-ins.
import { compileForTiers } from "./wasm-tiers.js";

const compiled = new Map<string, WebAssembly.Module | null>();

/** The module `base64` holds, compiled once per process; null where it cannot run (no WebAssembly SIMD). */
export function compiledWasm(base64: string): WebAssembly.Module | null {
  let module = compiled.get(base64);
  if (module !== undefined) return module;
  try {
    const bin = atob(base64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    module = compileForTiers("all", () => new WebAssembly.Module(bytes));
  } catch {
    module = null;
  }
  compiled.set(base64, module);
  return module;
}
