// Just enough of ONNX's protobuf format to read a model file's graph: each node's operator and
// input names, and each initializer tensor's name, shape, element type and raw bytes. The raw
// bytes are views into the given buffer, never copies, so a 17 MB table costs no second 17 MB;
// nor are they read: a buffer filled on demand (`ensure`) needs only the graph's structure in
// place, and its tensors' bytes when they are used. Portable (no Node built-ins): the browser
// build reads the same file.

/** ONNX TensorProto.DataType values this project reads. */
export const ONNX_FLOAT = 1;
export const ONNX_INT8 = 3;

export interface OnnxTensor {
  name: string;
  dims: number[];
  dataType: number;
  /** The tensor's raw_data (little-endian), a view into the model bytes; null when stored otherwise. */
  raw: Uint8Array | null;
}

export interface OnnxNode {
  opType: string;
  inputs: string[];
}

export interface OnnxGraph {
  nodes: OnnxNode[];
  initializers: Map<string, OnnxTensor>;
}

// Field numbers from onnx.proto3.
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const NODE_INPUT = 1;
const NODE_OP_TYPE = 4;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const TENSOR_DATA_LOCATION = 14;

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

const utf8 = new TextDecoder();

/**
 * Makes bytes [start, end) of a buffer filled on demand hold the file's bytes; may return true
 * once the whole file is in the buffer (no call is needed after that).
 */
export type EnsureBytes = (start: number, end: number) => boolean | void;

/** Longest varint: ten bytes. */
const VARINT_MAX = 10;

/** A cursor over one protobuf message. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start: number,
    readonly end: number,
    readonly ensure: EnsureBytes,
  ) {
    this.pos = start;
  }

  varint(): number {
    this.ensure(this.pos, Math.min(this.end, this.pos + VARINT_MAX));
    // multiplication, not shifts: lengths and int64 dims can pass 2^31
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.end) throw new Error("truncated varint");
      const byte = this.buf[this.pos++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }

  /** The bounds of a length-delimited field's payload; moves past it. */
  bytes(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    if (start + len > this.end) throw new Error("field runs past its message");
    this.pos = start + len;
    return [start, start + len];
  }

  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_FIXED64) this.pos += 8;
    else if (wire === WIRE_FIXED32) this.pos += 4;
    else if (wire === WIRE_BYTES) this.bytes();
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }

  /** Calls `onField(field, wire)` for every field; the callback reads or skips its value. */
  fields(onField: (field: number, wire: number) => void): void {
    while (this.pos < this.end) {
      const key = this.varint();
      onField(Math.floor(key / 8), key & 7);
    }
  }

  string(): string {
    const [s, e] = this.bytes();
    this.ensure(s, e);
    return utf8.decode(this.buf.subarray(s, e));
  }
}

function readNode(buf: Uint8Array, start: number, end: number, ensure: EnsureBytes): OnnxNode {
  const node: OnnxNode = { opType: "", inputs: [] };
  const r = new Reader(buf, start, end, ensure);
  r.fields((field, wire) => {
    if (field === NODE_INPUT && wire === WIRE_BYTES) node.inputs.push(r.string());
    else if (field === NODE_OP_TYPE && wire === WIRE_BYTES) node.opType = r.string();
    else r.skip(wire);
  });
  return node;
}

function readTensor(buf: Uint8Array, start: number, end: number, ensure: EnsureBytes): OnnxTensor {
  const tensor: OnnxTensor = { name: "", dims: [], dataType: 0, raw: null };
  let external = false;
  const r = new Reader(buf, start, end, ensure);
  r.fields((field, wire) => {
    if (field === TENSOR_DIMS && wire === WIRE_VARINT) tensor.dims.push(r.varint());
    else if (field === TENSOR_DIMS && wire === WIRE_BYTES) {
      const [s, e] = r.bytes();
      const packed = new Reader(buf, s, e, ensure);
      while (packed.pos < e) tensor.dims.push(packed.varint());
    } else if (field === TENSOR_DATA_TYPE && wire === WIRE_VARINT) tensor.dataType = r.varint();
    else if (field === TENSOR_NAME && wire === WIRE_BYTES) tensor.name = r.string();
    else if (field === TENSOR_RAW_DATA && wire === WIRE_BYTES) {
      const [s, e] = r.bytes();
      tensor.raw = buf.subarray(s, e);
    } else if (field === TENSOR_DATA_LOCATION && wire === WIRE_VARINT) external = r.varint() === 1;
    else r.skip(wire);
  });
  if (external) tensor.raw = null;
  return tensor;
}

const whole: EnsureBytes = () => {};

/**
 * Reads the graph of an ONNX model file, from bytes that hold all of it or that `ensure` fills
 * as they are read (tensors' raw bytes are left to their user). Throws one line on bytes that are not one.
 */
export function readOnnxGraph(bytes: Uint8Array, ensure: EnsureBytes = whole): OnnxGraph {
  try {
    return readGraph(bytes, ensure);
  } catch (e) {
    throw new Error(`not an ONNX model file (${e instanceof Error ? e.message : String(e)})`);
  }
}

function readGraph(bytes: Uint8Array, ensure: EnsureBytes): OnnxGraph {
  const graph: OnnxGraph = { nodes: [], initializers: new Map() };
  let found = false;
  const model = new Reader(bytes, 0, bytes.length, ensure);
  model.fields((field, wire) => {
    if (field !== MODEL_GRAPH || wire !== WIRE_BYTES) return model.skip(wire);
    found = true;
    const [gs, ge] = model.bytes();
    const g = new Reader(bytes, gs, ge, ensure);
    g.fields((gf, gw) => {
      if (gw !== WIRE_BYTES || (gf !== GRAPH_NODE && gf !== GRAPH_INITIALIZER)) return g.skip(gw);
      const [s, e] = g.bytes();
      if (gf === GRAPH_NODE) graph.nodes.push(readNode(bytes, s, e, ensure));
      else {
        const t = readTensor(bytes, s, e, ensure);
        graph.initializers.set(t.name, t);
      }
    });
  });
  if (!found) throw new Error("no graph in the ONNX file");
  return graph;
}
