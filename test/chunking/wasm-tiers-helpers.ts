// Shared by the WebAssembly tier tests: each runs in a process of its own (the tree-sitter
// runtime is compiled once per process, for the tiers asked first).
import { afterEach, expect } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { setWasmTierChooser, type WasmTiers } from "../../core/wasm-tiers.js";
import { options } from "./helpers.js";

afterEach(() => setWasmTierChooser(null));

/** Records the tiers each compile from now on asks for (and checks each made a module). */
export function recordTiers(): WasmTiers[] {
  const asked: WasmTiers[] = [];
  setWasmTierChooser((tiers, compile) => {
    const module = compile();
    expect(module).toBeInstanceOf(WebAssembly.Module);
    asked.push(tiers);
    return module;
  });
  return asked;
}

/** Chunks a Python and a Go file (two grammars) and checks each declaration came out. */
export async function chunkPythonAndGo(): Promise<void> {
  const python = await chunkFile("tools/a.py", "def area(w, h):\n    return w * h\n", options());
  const go = await chunkFile("b/b.go", "package b\n\nfunc Twice(n int) int { return 2 * n }\n", options());
  expect(python.map((c) => c.symbol)).toContain("area");
  expect(go.map((c) => c.symbol)).toContain("Twice");
}
