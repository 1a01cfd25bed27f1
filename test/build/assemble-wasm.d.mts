// Types of assemble-wasm.mjs (assembles core/keyword/int8-scan.wat into the module core embeds).
/** The text of core/keyword/int8-scan-wasm.ts as the .wat source assembles today. */
export function assembledModule(): Promise<string>;
