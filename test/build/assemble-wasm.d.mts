// Types of assemble-wasm.mjs (assembles the core's WebAssembly kernels from their .wat sources).
export interface Kernel {
  /** The .wat source. */
  wat: string;
  /** The .ts file embedding the assembled bytes. */
  ts: string;
  /** The constant that file exports. */
  name: string;
}
export const KERNELS: Kernel[];
/** The text of `kernel.ts` as its .wat source assembles today. */
export function assembledModule(kernel: Kernel): Promise<string>;
