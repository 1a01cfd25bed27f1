// Every chunk's vector as 4-bit codes (-7..7) with a per-row scale, beside the keyword postings
// and in the same document numbering, so that a vector search is an exact scan of the whole
// index: 128 bytes a chunk of 256 dimensions, scanned against the query's int8 codes by a
// WebAssembly SIMD loop (int4-scan.wat), with no approximate index to build, hold in memory
// while building, or rebuild as the index grows. Cosine scores are the float vectors' within
// ~0.007 on average (0.02 at worst, on the bundled model's vectors of real code); ranking on the
// dev benchmarks was the same as with 8-bit codes (docs/retrieval.md), at half the bytes to
// store, read and scan.
// The kernel scans codes in its own memory. An index being built keeps them there; a keyword
// file is read straight into a kernel's memory (keywordFileBuffer()), so a loaded index scans
// the file's own bytes: copying 28 MB of codes into fresh memory cost ~120 ms of every load.
// Portable: no Node built-ins (browsers and Bun run the same loop; a plain loop stands in where
// WebAssembly SIMD is missing).
import { compiledWasm } from "../wasm-module.js";
import { INT4_SCAN_WASM } from "./int4-scan-wasm.js";
import { TopK } from "./top-k.js";

/** Rows scanned per call into the kernel: its output buffer holds this many scores. */
const BLOCK_ROWS = 4096;
/** Where the kernel's memory holds the query, the block's scores, and the codes (or a file holding them). */
const QUERY_AT = 0;
const MAX_DIMENSIONS = 8192;
const SCORES_AT = QUERY_AT + MAX_DIMENSIONS;
const CODES_AT = SCORES_AT + BLOCK_ROWS * 4;
const PAGE = 65536;

interface Kernel {
  memory: WebAssembly.Memory;
  scan: (codes: number, rows: number, stride: number, query: number, out: number) => void;
}

/** A kernel instance whose memory has at least `bytes` bytes; null where SIMD is not available. */
function newKernel(bytes: number): Kernel | null {
  const module = compiledWasm(INT4_SCAN_WASM);
  if (!module) return null;
  try {
    const instance = new WebAssembly.Instance(module, {});
    const kernel = { memory: instance.exports.memory as WebAssembly.Memory, scan: instance.exports.scan as Kernel["scan"] };
    growTo(kernel, bytes);
    return kernel;
  } catch {
    return null;
  }
}

function growTo(kernel: Kernel, bytes: number): void {
  const have = kernel.memory.buffer.byteLength;
  if (bytes > have) kernel.memory.grow(Math.ceil((bytes - have) / PAGE));
}

/** Room keywordFileBuffer() leaves after a file, at least (64k rows of 256 dimensions). */
const FILE_HEADROOM_MIN = 8 << 20;

/** Kernels whose memory holds a file read through keywordFileBuffer(), by that memory's buffer. */
const fileKernels = new WeakMap<ArrayBufferLike, Kernel>();

/**
 * Room to read a keyword file of `size` bytes into: a kernel's memory where SIMD is available,
 * so that the index loaded from it scans the file's codes where they lie. Never grown (that
 * would detach every view of the file).
 */
export function keywordFileBuffer(size: number): Uint8Array {
  // Room after the file (untouched, so it costs address space, not memory): rows added to the
  // loaded index (keyword delta files, a watcher's passes) go there, after the codes, which end
  // the file but for its 4-byte trailer, instead of into a copy of every row.
  const kernel = newKernel(CODES_AT + size + Math.max(FILE_HEADROOM_MIN, Math.ceil(size / 8)));
  if (!kernel) return new Uint8Array(size);
  fileKernels.set(kernel.memory.buffer, kernel);
  return new Uint8Array(kernel.memory.buffer, CODES_AT, size);
}

/** Largest code of a row: codes are -7..7, stored as code + 8 in half a byte. */
const ROW_LEVELS = 7;
/** Largest code of a query (int8: the query's precision costs nothing to store). */
const QUERY_LEVELS = 127;

/** Bytes a row of `dimension` codes takes: 16 bytes per 32 dimensions (the kernel's step). */
export function rowBytes(dimension: number): number {
  return Math.ceil(dimension / 32) * 16;
}

/**
 * Where dimension `d`'s code lies in a row: byte 16·⌊d/32⌋ + d mod 16, the low half for
 * d mod 32 < 16, else the high half (so the kernel unpacks 16 consecutive dimensions at once).
 */
function byteOf(d: number): number {
  return ((d >> 5) << 4) + (d & 15);
}

function isHigh(d: number): boolean {
  return (d & 16) !== 0;
}

/** Largest absolute value of a vector (0 when it has none, or NaN). */
function maxAbs(vector: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i]));
  return max > 0 ? max : 0;
}

/** Quantises a query into int8 `out` (zeros past its length); returns the scale (0 for a zero vector). */
export function quantise(vector: ArrayLike<number>, out: Int8Array): number {
  const max = maxAbs(vector);
  if (max === 0) return 0;
  const scale = max / QUERY_LEVELS;
  for (let i = 0; i < vector.length; i++) out[i] = Math.round(vector[i] / scale);
  return scale;
}

/** Quantises a vector into the row of `stride` bytes at `at` of `codes`; returns the scale (0 for a zero vector). */
function quantiseRow(vector: ArrayLike<number>, codes: Uint8Array, at: number, stride: number): number {
  codes.fill(0x88, at, at + stride); // every code 0, padding included
  const max = maxAbs(vector);
  if (max === 0) return 0;
  const scale = max / ROW_LEVELS;
  for (let d = 0; d < vector.length; d++) {
    const nibble = Math.round(vector[d] / scale) + 8;
    const b = at + byteOf(d);
    codes[b] = isHigh(d) ? (codes[b] & 0x0f) | (nibble << 4) : (codes[b] & 0xf0) | nibble;
  }
  return scale;
}

/** Code of dimension `d` in the row at `at`. */
function codeAt(codes: Uint8Array, at: number, d: number): number {
  const byte = codes[at + byteOf(d)];
  return (isHigh(d) ? byte >> 4 : byte & 0x0f) - 8;
}

export class VectorCodes {
  /** Vector length (0 until the first vector arrives) and the row length in bytes (rowBytes()). */
  private dimension = 0;
  private stride = 0;
  private rows = 0;
  /** Per row: the scale that turns codes back into the vector; 0 = the row has no vector. */
  private scales = new Float32Array(0);
  /** The kernel whose memory holds the codes; null: none (no SIMD), the codes are in `plain`. */
  private kernel: Kernel | null = null;
  /** Where row 0 starts in the kernel's memory. */
  private codesAt = CODES_AT;
  /** Whether the kernel's memory is this object's own (it may grow) or a loaded file's (it may not). */
  private ownsMemory = true;
  /** Codes when there is no kernel: capacity × stride bytes. */
  private plain: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private readonly queryCodes = new Int8Array(MAX_DIMENSIONS);

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
    this.scales[row] = quantiseRow(vector, this.codes(), row * this.stride, this.stride);
  }

  /** Row `row`'s vector as stored (quantised), or null. */
  vector(row: number): Float32Array | null {
    if (row >= this.rows || this.scales[row] === 0) return null;
    const codes = this.codes();
    const out = new Float32Array(this.dimension);
    for (let d = 0; d < this.dimension; d++) out[d] = codeAt(codes, row * this.stride, d) * this.scales[row];
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
    q.fill(0, 0, 2 * this.stride);
    const queryScale = quantise(query, q);
    if (queryScale === 0) return [];
    const heap = new TopK(k);
    const scales = this.scales;
    // A row's score must beat the heap's floor: checked inline, since a one-off search runs this
    // loop over every row once, before it is optimised, where a call per row cost ~25 ms at 100k.
    let floor = heap.floor;
    const take = (row: number, dot: number) => {
      const scale = scales[row];
      if (scale === 0) return;
      const s = dot * scale * queryScale;
      if (s > floor && accept(row)) {
        heap.push(row, s);
        floor = heap.floor;
      }
    };
    if (this.kernel) {
      const { memory, scan } = this.kernel;
      new Int8Array(memory.buffer, QUERY_AT, 2 * this.stride).set(q.subarray(0, 2 * this.stride));
      for (let start = 0; start < this.rows; start += BLOCK_ROWS) {
        const n = Math.min(BLOCK_ROWS, this.rows - start);
        scan(this.codesAt + start * this.stride, n, this.stride, QUERY_AT, SCORES_AT);
        const dots = new Int32Array(memory.buffer, SCORES_AT, n);
        // (a row without a vector has scale 0, score 0: take() leaves it out)
        for (let i = nextAbove(dots, 0, n, scales, start, queryScale, floor); i < n; i = nextAbove(dots, i + 1, n, scales, start, queryScale, floor)) take(start + i, dots[i]);
      }
    } else {
      const codes = this.plain;
      for (let row = 0; row < this.rows; row++) {
        let dot = 0;
        const base = row * this.stride;
        for (let d = 0; d < this.dimension; d++) dot += codeAt(codes, base, d) * q[d];
        take(row, dot);
      }
    }
    return heap.sorted().map(([row, s]) => [row, Math.min(1, Math.max(0, s))]);
  }

  /** The stored form: dimension, then per row its scale and rowBytes(dimension) bytes of codes (rows without a vector: scale 0). */
  toBytes(): { dimension: number; rows: number; scales: Uint8Array; codes: Uint8Array } {
    const codes = this.codes();
    const scales = new Uint8Array(this.scales.buffer.slice(0, this.rows * 4));
    // A view of the rows as they are kept, copied by the writer.
    return { dimension: this.dimension, rows: this.rows, scales, codes: codes.subarray(0, this.rows * this.stride) };
  }

  /**
   * Codes as toBytes() gives them. Where `codes` lie in memory from keywordFileBuffer(), they
   * are scanned there (changes then write into that memory, and growing moves them out first);
   * otherwise they are copied.
   */
  static fromBytes(dimension: number, rows: number, scales: Uint8Array, codes: Uint8Array, simd = true): VectorCodes {
    const v = new VectorCodes(simd);
    if (dimension === 0) return v;
    const stride = rowBytes(dimension);
    if (scales.length !== rows * 4 || codes.length !== rows * stride) throw new Error("vector codes do not match the document count");
    // A copy (new Uint8Array(view) always copies; a Node Buffer's slice() would not).
    const rowScales = new Float32Array(new Uint8Array(scales).buffer);
    const fileKernel = simd ? fileKernels.get(codes.buffer) : undefined;
    if (fileKernel) {
      v.dimension = dimension;
      v.stride = stride;
      v.kernel = fileKernel;
      v.codesAt = codes.byteOffset;
      v.ownsMemory = false;
      // Rows that fit in the memory after the codes (keywordFileBuffer leaves room) need no move.
      const spareRows = Math.floor((fileKernel.memory.buffer.byteLength - (codes.byteOffset + codes.length)) / stride);
      v.scales = new Float32Array(rows + Math.max(0, spareRows));
      v.scales.set(rowScales);
      v.rows = rows;
      return v;
    }
    v.start(dimension);
    v.ensureRows(rows);
    v.scales.set(rowScales);
    v.codes().set(codes, 0);
    return v;
  }

  /**
   * The one-byte codes of a format 6 keyword file (dimension bytes a row, each code × its row's
   * scale the vector), turned into this form (~0.1 s per 100k rows, once per load of such a file).
   */
  static fromInt8Bytes(dimension: number, rows: number, scales: Uint8Array, codes: Uint8Array, simd = true): VectorCodes {
    const v = new VectorCodes(simd);
    if (dimension === 0) return v;
    if (scales.length !== rows * 4 || codes.length !== rows * dimension) throw new Error("vector codes do not match the document count");
    const rowScales = new Float32Array(new Uint8Array(scales).buffer);
    const old = new Int8Array(codes.buffer, codes.byteOffset, codes.length);
    const vector = new Float32Array(dimension);
    v.start(dimension);
    v.ensureRows(rows); // room for every row at once, not grown as they come
    for (let r = 0; r < rows; r++) {
      if (rowScales[r] === 0) {
        v.set(r, null);
        continue;
      }
      for (let d = 0; d < dimension; d++) vector[d] = old[r * dimension + d] * rowScales[r];
      v.set(r, vector);
    }
    return v;
  }

  private start(dimension: number): void {
    if (dimension > MAX_DIMENSIONS) throw new Error(`vectors of ${dimension} dimensions are more than the ${MAX_DIMENSIONS} the index keeps`);
    this.dimension = dimension;
    this.stride = rowBytes(dimension);
    this.kernel = this.simd ? newKernel(CODES_AT) : null;
    this.reserveCodes(this.capacity());
  }

  /** Room for `capacity` rows of codes (once the row length is known). */
  private reserveCodes(capacity: number): void {
    if (this.stride === 0) return;
    if (this.kernel) {
      if (!this.ownsMemory) this.moveToOwnMemory();
      growTo(this.kernel, this.codesAt + capacity * this.stride);
    } else if (this.plain.length < capacity * this.stride) {
      const plain = new Uint8Array(capacity * this.stride);
      plain.set(this.plain);
      this.plain = plain;
    }
  }

  /** Codes that lie in a loaded file's memory are copied out (so the file's memory can go). */
  release(): void {
    if (this.kernel && !this.ownsMemory) this.moveToOwnMemory();
  }

  /**
   * Copies codes that lie in a loaded file's memory into a kernel of this object's own: the
   * rows in use only. The room after them (keywordFileBuffer's, 8 MB at least) was never
   * touched, and copying it would touch all of it (~50 ms of every merge of a loaded index).
   */
  private moveToOwnMemory(): void {
    const used = this.codes().subarray(0, this.rows * this.stride);
    const room = this.capacity() * this.stride;
    const own = newKernel(CODES_AT + room);
    if (own) new Uint8Array(own.memory.buffer, CODES_AT, used.length).set(used);
    else {
      this.plain = new Uint8Array(room);
      this.plain.set(used);
    }
    this.kernel = own;
    this.codesAt = CODES_AT;
    this.ownsMemory = true;
  }

  /** The codes as a view (the kernel's memory moves when it grows: never keep the view). */
  private codes(): Uint8Array<ArrayBufferLike> {
    if (this.kernel) return new Uint8Array(this.kernel.memory.buffer, this.codesAt, this.capacity() * this.stride);
    return this.plain;
  }

  private capacity(): number {
    return this.scales.length;
  }

  private ensureRows(rows: number): void {
    if (rows > this.capacity()) {
      const capacity = Math.max(rows, Math.ceil(this.capacity() * 1.5), 256);
      // Codes first: moving them out of a file's memory reads the old capacity.
      this.reserveCodes(capacity);
      const scales = new Float32Array(capacity);
      scales.set(this.scales);
      this.scales = scales;
    }
    this.rows = Math.max(this.rows, rows);
  }
}

/**
 * The first of a block's rows from `from` on whose score could pass `floor`, or `n`. A function
 * of its own, called once a block or more: V8 optimises it after a few blocks, where the same
 * loop inside the scan waited for on-stack replacement (a fresh process's first scan at 109k
 * rows: ~21 ms, later ones ~5).
 */
function nextAbove(dots: Int32Array, from: number, n: number, scales: Float32Array, start: number, queryScale: number, floor: number): number {
  for (let i = from; i < n; i++) if (dots[i] * scales[start + i] * queryScale > floor) return i;
  return n;
}
