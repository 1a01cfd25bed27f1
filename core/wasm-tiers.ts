// Which of V8's tiers a WebAssembly module may run at, where the process lets opencode-rag
// choose (core/own-process.ts). A grammar's lexer is one huge function: once a grammar has parsed
// real code (Swift, Kotlin), V8's background threads spend seconds optimising it, and the process
// cannot exit until they are done (`index` of a one-file Swift project: 7 s, 0.5 s of it work).
// The tree-sitter runtime's functions are small and run for every file, and the embedding
// kernel's for every text: optimised, parsing takes a third less time. So such a process
// compiles grammars for the baseline tier only, the kernels for every tier, and the runtime for
// every tier in a pass big enough to earn its optimising (core/chunking/parser.ts). Portable:
// elsewhere each module compiles as the engine decides.

/** "baseline": the module runs at the baseline tier only; "all": the engine may optimise it. */
export type WasmTiers = "baseline" | "all";

/** Runs a synchronous compile so that the module it makes runs at `tiers`. */
export type CompileForTiers = <T>(tiers: WasmTiers, compile: () => T) => T;

let chooser: CompileForTiers | null = null;

/** Sets (null: clears) how this thread compiles a module for the tiers asked. */
export function setWasmTierChooser(choose: CompileForTiers | null): void {
  chooser = choose;
}

/** `compile()`, its module running at `tiers` where the process chose so. */
export function compileForTiers<T>(tiers: WasmTiers, compile: () => T): T {
  return chooser ? chooser(tiers, compile) : compile();
}
