// Every chunk's vector as int8 codes with a per-row scale, beside the keyword postings and in
// the same document numbering, so that a vector search is an exact scan of the whole index:
// 256 bytes a chunk, scanned at ~2 ms per 100k chunks by a WebAssembly SIMD loop
// (int8-scan.wat), with no approximate index to build, hold in memory while building, or
// rebuild as the index grows. Cosine scores match the float vectors' to about 1e-3.
// Portable: no Node built-ins (browsers and Bun run the same loop; a plain loop stands in where
// WebAssembly SIMD is missing).
import { INT8_SCAN_WASM } from "./int8-scan-wasm.js";
import { TopK } from "./top-k.js";

/** Rows scanned per call into the kernel: its output buffer holds this many scores. */
const BLOCK_ROWS = 4096;
/** Where the kernel's memory holds the query, the block's scores, and the codes. */
const QUERY_AT = 0;
const MAX_STRIDE = 8192;
const SCORES_AT = QUERY_AT + MAX_STRIDE;
const CODES_AT = SCORES_AT + BLOCK_ROWS * 4;
const PAGE = 65536;

interface Kernel {
  memory: WebAssembly.Memory;
  scan: (codes: number, rows: number, stride: number, query: number, out: number) => void;
}

let kernelModule: WebAssembly.Module | null | undefined;

/** The compiled kernel, once per process; null where WebAssembly SIMD is not available. */
function compiledKernel(): WebAssembly.Module | null {
  if (kernelModule !== undefined) return kernelModule;
  try {
    const bin = atob(INT8_SCAN_WASM);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    kernelModule = new WebAssembly.Module(bytes);
  } catch {
    kernelModule = null;
  }
  return kernelModule;
}

/** Quantises a vector into `out` (length ≥ its length); returns the scale (0 for a zero vector). */
export function quantise(vector: ArrayLike<number>, out: Int8Array, at = 0): number {
  let max = 0;
  for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i]));
  if (!(max > 0)) return 0;
  const scale = max / 127;
  for (let i = 0; i < vector.length; i++) out[at + i] = Math.round(vector[i] / scale);
  return scale;
}

export class VectorCodes {
  /** Vector length (0 until the first vector arrives) and the row length in bytes (a multiple of 16). */
  private dimension = 0;
  private stride = 0;
  private rows = 0;
  /** Per row: the scale that turns codes back into the vector; 0 = the row has no vector. */
  private scales = new Float32Array(0);
  private kernel: Kernel | null = null;
  /** Codes when there is no kernel (or before it is made): rows × stride bytes. */
  private plain = new Int8Array(0);
  private readonly queryCodes = new Int8Array(MAX_STRIDE);

  /** `simd: false` scans with the plain loop (tests hold the two to the same answers). */
  constructor(private readonly simd = true) {}

  get dim(): number {
    return this.dimension;
  }

  /** Rows with a vector. */
  get count(): number {
    let n = 0;
    for (let r = 0; r < this.rows; r++) if (this.scales[r] !== 0) n++;
    return n;
  }

  /** Sets row `row`'s vector (null: none). Rows are the keyword index's document numbers. */
  set(row: number, vector: ArrayLike<number> | null | undefined): void {
    if (vector && vector.length > 0 && this.dimension === 0) this.start(vector.length);
    this.ensureRows(row + 1);
    if (!vector || vector.length === 0) {
      this.scales[row] = 0;
      return;
    }
    if (vector.length !== this.dimension) throw new Error(`a vector of ${vector.length} dimensions among vectors of ${this.dimension}: re-index with --force`);
    const codes = this.codes();
    codes.fill(0, row * this.stride, (row + 1) * this.stride);
    this.scales[row] = quantise(vector, codes, row * this.stride);
  }

  /** Row `row`'s vector as stored (quantised), or null. */
  vector(row: number): Float32Array | null {
    if (row >= this.rows || this.scales[row] === 0) return null;
    const codes = this.codes();
    const out = new Float32Array(this.dimension);
    for (let i = 0; i < this.dimension; i++) out[i] = codes[row * this.stride + i] * this.scales[row];
    return out;
  }

  /** Keeps the rows `remap` names (old row → new row, -1 = dropped), in order. */
  remap(remap: Int32Array, newRows: number): void {
    if (this.dimension === 0) return;
    const codes = this.codes();
    for (let old = 0; old < Math.min(remap.length, this.rows); old++) {
      const to = remap[old];
      if (to < 0 || to === old) continue;
      // Rows only move down (live rows keep their order), so copying forward is safe.
      codes.copyWithin(to * this.stride, old * this.stride, (old + 1) * this.stride);
      this.scales[to] = this.scales[old];
    }
    this.rows = newRows;
    this.scales.fill(0, newRows);
  }

  /**
   * The `k` rows most similar to `query` (cosine, clamped to [0,1]) that `accept` lets through,
   * best first. Rows without a vector are never returned.
   */
  search(query: ArrayLike<number>, k: number, accept: (row: number) => boolean): Array<[row: number, score: number]> {
    if (this.dimension === 0 || k <= 0 || this.rows === 0) return [];
    if (query.length !== this.dimension) throw new Error(`the query vector has ${query.length} dimensions, the index ${this.dimension}: re-index with --force`);
    const q = this.queryCodes;
    q.fill(0, 0, this.stride);
    const queryScale = quantise(query, q);
    if (queryScale === 0) return [];
    const heap = new TopK(k);
    const take = (row: number, dot: number) => {
      const scale = this.scales[row];
      if (scale === 0) return;
      const s = dot * scale * queryScale;
      if (heap.wouldAccept(s) && accept(row)) heap.push(row, s);
    };
    if (this.kernel) {
      const { memory, scan } = this.kernel;
      new Int8Array(memory.buffer, QUERY_AT, this.stride).set(q.subarray(0, this.stride));
      for (let start = 0; start < this.rows; start += BLOCK_ROWS) {
        const n = Math.min(BLOCK_ROWS, this.rows - start);
        scan(CODES_AT + start * this.stride, n, this.stride, QUERY_AT, SCORES_AT);
        const dots = new Int32Array(memory.buffer, SCORES_AT, n);
        for (let i = 0; i < n; i++) take(start + i, dots[i]);
      }
    } else {
      const codes = this.plain;
      for (let row = 0; row < this.rows; row++) {
        let dot = 0;
        const base = row * this.stride;
        for (let j = 0; j < this.dimension; j++) dot += codes[base + j] * q[j];
        take(row, dot);
      }
    }
    return heap.sorted().map(([row, s]) => [row, Math.min(1, Math.max(0, s))]);
  }

  /** The stored form: dimension, then per row its scale and codes (rows without a vector: scale 0). */
  toBytes(): { dimension: number; rows: number; scales: Uint8Array; codes: Uint8Array } {
    const codes = this.codes();
    const packed = new Int8Array(this.rows * this.dimension);
    for (let r = 0; r < this.rows; r++) packed.set(codes.subarray(r * this.stride, r * this.stride + this.dimension), r * this.dimension);
    return {
      dimension: this.dimension,
      rows: this.rows,
      scales: new Uint8Array(this.scales.buffer.slice(0, this.rows * 4)),
      codes: new Uint8Array(packed.buffer),
    };
  }

  static fromBytes(dimension: number, rows: number, scales: Uint8Array, codes: Uint8Array, simd = true): VectorCodes {
    const v = new VectorCodes(simd);
    if (dimension === 0) return v;
    if (scales.length !== rows * 4 || codes.length !== rows * dimension) throw new Error("vector codes do not match the document count");
    v.start(dimension);
    v.ensureRows(rows);
    v.scales.set(new Float32Array(scales.slice().buffer));
    const target = v.codes();
    const source = new Int8Array(codes.buffer, codes.byteOffset, codes.length);
    // Rows are padded to the kernel's 16-byte stride; unpadded ones (256 dimensions) copy at once.
    if (v.stride === dimension) target.set(source, 0);
    else for (let r = 0; r < rows; r++) target.set(source.subarray(r * dimension, (r + 1) * dimension), r * v.stride);
    return v;
  }

  private start(dimension: number): void {
    if (dimension > MAX_STRIDE) throw new Error(`vectors of ${dimension} dimensions are more than the ${MAX_STRIDE} the index keeps`);
    this.dimension = dimension;
    this.stride = Math.ceil(dimension / 16) * 16;
    const module = this.simd ? compiledKernel() : null;
    if (module) {
      try {
        const instance = new WebAssembly.Instance(module, {});
        this.kernel = { memory: instance.exports.memory as WebAssembly.Memory, scan: instance.exports.scan as Kernel["scan"] };
      } catch {
        this.kernel = null;
      }
    }
    this.reserveCodes(this.capacity());
  }

  /** Room for `capacity` rows of codes (once the row length is known). */
  private reserveCodes(capacity: number): void {
    if (this.stride === 0) return;
    if (this.kernel) {
      const needed = CODES_AT + capacity * this.stride;
      const have = this.kernel.memory.buffer.byteLength;
      if (needed > have) this.kernel.memory.grow(Math.ceil((needed - have) / PAGE));
    } else if (this.plain.length < capacity * this.stride) {
      const plain = new Int8Array(capacity * this.stride);
      plain.set(this.plain);
      this.plain = plain;
    }
  }

  /** The codes as a view (the kernel's memory moves when it grows: never keep the view). */
  private codes(): Int8Array {
    if (this.kernel) return new Int8Array(this.kernel.memory.buffer, CODES_AT, this.capacity() * this.stride);
    return this.plain;
  }

  private capacity(): number {
    return this.scales.length;
  }

  private ensureRows(rows: number): void {
    if (rows > this.capacity()) {
      const capacity = Math.max(rows, Math.ceil(this.capacity() * 1.5), 256);
      const scales = new Float32Array(capacity);
      scales.set(this.scales);
      this.scales = scales;
      this.reserveCodes(capacity);
    }
    this.rows = Math.max(this.rows, rows);
  }
}
