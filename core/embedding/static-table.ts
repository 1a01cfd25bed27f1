// The bundled model computed without an inference runtime. Its ONNX graph is a static token
// table: ids masked by the attention mask (padding reads row 0, which is zero), int8 rows
// gathered and multiplied by their row's scale, summed over the sequence, L2-normalised. The
// same arithmetic here, on the table read straight out of model.onnx: one Int8Array view of the
// file's bytes plus one float scale per row, no dequantised copy. A model file read into
// modelFileBuffer() lies in a WebAssembly kernel's memory, which sums the rows 16 weights at a
// time (token-sum.wat; ~5x the plain loop, which stands in where SIMD is missing).
// Portable (no Node built-ins).
import { ONNX_FLOAT, ONNX_INT8, readOnnxGraph, type EnsureBytes } from "./onnx-reader.js";
import { compiledWasm } from "../wasm-module.js";
import { TOKEN_SUM_WASM } from "./token-sum-wasm.js";
import { LITTLE_ENDIAN } from "../little-endian.js";

export interface StaticTable {
  rows: number;
  dim: number;
  /** rows x dim int8 weights, row-major: a view into the model file's bytes. */
  weights: Int8Array;
  /** One dequantisation factor per row. */
  scales: Float32Array;
  /** The kernel whose memory holds the file's bytes; null: the plain loop sums the rows. */
  kernel: SumKernel | null;
  /**
   * For a file read on demand: makes rows [from, to) present, and says whether the whole file
   * now is (then the table drops it). Null when every row is in memory.
   */
  loadRows: ((from: number, to: number) => boolean) | null;
}

/** Distinct ids summed per kernel call, and the longest row the kernel's accumulator holds. */
const MAX_IDS = 8192;
const MAX_DIM = 4096;
/** The kernel's memory: ids and their factors, the accumulator, then the model file. */
const IDS_AT = 0;
const FACTORS_AT = IDS_AT + MAX_IDS * 4;
const ACC_AT = FACTORS_AT + MAX_IDS * 4;
const FILE_AT = ACC_AT + MAX_DIM * 4;
const PAGE = 65536;

interface SumKernel {
  accumulate: (weights: number, dim: number, ids: number, factors: number, n: number, acc: number) => void;
  ids: Int32Array;
  factors: Float32Array;
  acc: Float32Array;
  /** Per table row, how often the row being summed holds it (0 between rows). */
  counts: Uint32Array;
}

/** Kernel memories holding a model file read through modelFileBuffer(), by that memory's buffer. */
const fileMemories = new WeakMap<ArrayBufferLike, WebAssembly.Instance>();

/**
 * Room to read a model file of `size` bytes into: a kernel's memory where WebAssembly SIMD is
 * available (a static table read from it is summed there, with no copy), else plain memory.
 */
export function modelFileBuffer(size: number): Uint8Array {
  const module = compiledWasm(TOKEN_SUM_WASM);
  if (module) {
    try {
      const instance = new WebAssembly.Instance(module, {});
      const memory = instance.exports.memory as WebAssembly.Memory;
      memory.grow(Math.ceil((FILE_AT + size) / PAGE) - memory.buffer.byteLength / PAGE);
      fileMemories.set(memory.buffer, instance);
      return new Uint8Array(memory.buffer, FILE_AT, size);
    } catch {
      // no memory that size: plain memory below
    }
  }
  return new Uint8Array(size);
}

/** The kernel for a table whose weights lie in a kernel's memory (and whose rows it can sum). */
function kernelFor(weights: Int8Array, rows: number, dim: number): SumKernel | null {
  const instance = fileMemories.get(weights.buffer);
  if (!instance || dim % 16 !== 0 || dim > MAX_DIM) return null;
  const buffer = (instance.exports.memory as WebAssembly.Memory).buffer;
  return {
    accumulate: instance.exports.accumulate as SumKernel["accumulate"],
    ids: new Int32Array(buffer, IDS_AT, MAX_IDS),
    factors: new Float32Array(buffer, FACTORS_AT, MAX_IDS),
    acc: new Float32Array(buffer, ACC_AT, dim),
    counts: new Uint32Array(rows),
  };
}

/** The exact operator sequence of the static table graph (models/scripts/train.py, export_onnx). */
const STATIC_GRAPH_OPS = ["Mul", "Gather", "Gather", "Cast", "Mul", "ReduceSum", "LpNormalization"];

/**
 * The table of a static-embedding model.onnx; null when the graph is any other model (which
 * then needs an inference runtime). Throws when the bytes are not an ONNX file at all. With
 * `ensure`, the bytes are filled on demand (core/files/read-into.ts): the graph's structure and
 * the scales are read now, each row of weights when a text first uses it (a query touches a
 * few dozen of the 65,536).
 */
export function staticTableFromOnnx(bytes: Uint8Array, ensure?: EnsureBytes): StaticTable | null {
  const graph = readOnnxGraph(bytes, ensure);
  if (graph.nodes.map((n) => n.opType).join() !== STATIC_GRAPH_OPS.join()) return null;
  const [, gatherRows, gatherScales] = graph.nodes;
  const table = graph.initializers.get(gatherRows.inputs[0]);
  const scale = graph.initializers.get(gatherScales.inputs[0]);
  if (!table?.raw || !scale?.raw || table.dataType !== ONNX_INT8 || scale.dataType !== ONNX_FLOAT) return null;
  const [rows, dim] = table.dims;
  if (table.dims.length !== 2 || !(rows > 0 && dim > 0) || table.raw.length !== rows * dim) return null;
  if (scale.dims.reduce((a, b) => a * b, 1) !== rows || scale.raw.length !== rows * 4) return null;
  const weights = new Int8Array(table.raw.buffer, table.raw.byteOffset, rows * dim);
  ensure?.(scale.raw.byteOffset - bytes.byteOffset, scale.raw.byteOffset - bytes.byteOffset + scale.raw.length);
  // 4 bytes a row: copied, because the file offset need not be aligned for a Float32Array view
  // (one memory copy where the machine is little-endian, as ONNX stores them)
  let scales: Float32Array;
  if (LITTLE_ENDIAN) scales = new Float32Array(new Uint8Array(scale.raw).buffer);
  else {
    scales = new Float32Array(rows);
    const view = new DataView(scale.raw.buffer, scale.raw.byteOffset, scale.raw.length);
    for (let i = 0; i < rows; i++) scales[i] = view.getFloat32(i * 4, true);
  }
  const weightsAt = weights.byteOffset - bytes.byteOffset;
  const loadRows = ensure ? (from: number, to: number) => ensure(weightsAt + from * dim, weightsAt + to * dim) === true : null;
  return { rows, dim, weights, scales, kernel: kernelFor(weights, rows, dim), loadRows };
}

/** Rows `ids` of the table present in memory (all of them from then on once the file is). */
function loadIds(table: StaticTable, ids: ArrayLike<number>, n: number): void {
  const load = table.loadRows;
  if (!load) return;
  for (let j = 0; j < n; j++) {
    if (load(ids[j], ids[j] + 1)) {
      table.loadRows = null;
      return;
    }
  }
}

/**
 * One L2-normalised vector per row of token ids, packed one after another. A text whose rows
 * sum to zero (no ids, or only zero rows) stays a zero vector. Ids outside the table are
 * refused: the tokenizer and the table must come from the same model.
 */
export function embedTokenIds(table: StaticTable, rows: readonly (readonly number[])[]): Float32Array {
  const { dim } = table;
  // the mean's 1/n cancels in the normalisation, so the sum is enough; float32 as in the graph
  const sumOf = table.kernel ? kernelSum(table, table.kernel) : plainSum(table);
  const out = new Float32Array(rows.length * dim);
  for (let r = 0; r < rows.length; r++) {
    const acc = sumOf(rows[r]);
    let norm = 0;
    for (let k = 0; k < dim; k++) norm += acc[k] * acc[k];
    if (norm === 0) continue;
    const inv = 1 / Math.sqrt(norm);
    const o = r * dim;
    for (let k = 0; k < dim; k++) out[o + k] = acc[k] * inv;
  }
  return out;
}

/** Throws unless `id` is a row of the table. */
function checkId(table: StaticTable, id: number): void {
  if (!(id >= 0 && id < table.rows)) throw new Error(`token id ${id} is outside the embedding table (${table.rows} rows)`);
}

/** A row of ids summed by a plain loop into one reused accumulator. */
function plainSum(table: StaticTable): (ids: readonly number[]) => Float32Array {
  const { dim, weights, scales } = table;
  const acc = new Float32Array(dim);
  // a chunk of code repeats many tokens: each distinct row is added once, times its count
  const counts = new Uint32Array(table.rows);
  const distinct: number[] = [];
  const unrolled = dim - (dim % 4);
  return (ids) => {
    distinct.length = 0;
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j];
      checkId(table, id);
      if (counts[id]++ === 0) distinct.push(id);
    }
    loadIds(table, distinct, distinct.length);
    acc.fill(0);
    for (let j = 0; j < distinct.length; j++) {
      const id = distinct[j];
      const factor = scales[id] * counts[id];
      counts[id] = 0;
      const base = id * dim;
      // four lanes a step: about 1.7x faster than one in V8 on this loop
      let k = 0;
      for (; k < unrolled; k += 4) {
        acc[k] += weights[base + k] * factor;
        acc[k + 1] += weights[base + k + 1] * factor;
        acc[k + 2] += weights[base + k + 2] * factor;
        acc[k + 3] += weights[base + k + 3] * factor;
      }
      for (; k < dim; k++) acc[k] += weights[base + k] * factor;
    }
    return acc;
  };
}

/** A row of ids summed by the kernel into its accumulator (float32 throughout, as in the graph). */
function kernelSum(table: StaticTable, kernel: SumKernel): (ids: readonly number[]) => Float32Array {
  const { dim, scales } = table;
  const { ids: distinct, factors, acc, counts } = kernel;
  const weightsAt = table.weights.byteOffset;
  // Sums the n distinct ids gathered so far, each times its scale and count, into acc.
  const flush = (n: number) => {
    loadIds(table, distinct, n);
    for (let j = 0; j < n; j++) {
      const id = distinct[j];
      factors[j] = scales[id] * counts[id];
      counts[id] = 0;
    }
    kernel.accumulate(weightsAt, dim, IDS_AT, FACTORS_AT, n, ACC_AT);
  };
  return (ids) => {
    acc.fill(0);
    let n = 0;
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j];
      if (!(id >= 0 && id < table.rows)) {
        // the counts are the kernel's, kept across calls: leave none behind
        for (let k = 0; k < n; k++) counts[distinct[k]] = 0;
        checkId(table, id);
      }
      // A token met again after a flush starts a new count: its rows still add up to the same sum.
      if (counts[id]++ !== 0) continue;
      distinct[n++] = id;
      if (n === MAX_IDS) {
        flush(n);
        n = 0;
      }
    }
    if (n > 0) flush(n);
    return acc;
  };
}
