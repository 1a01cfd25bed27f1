// Our binary files (the keyword index, the model's vocabulary, ONNX) store numbers
// little-endian. Where the machine does too (every platform Node, Bun and browsers run on
// today) and the bytes are aligned, typed arrays view them in place; otherwise they are copied
// value by value. Portable.

/** Whether this machine stores numbers little-endian. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * `count` little-endian unsigned integers of `width` bytes at the start of `bytes`: a view of
 * them where the machine's byte order and their alignment allow, else a copy.
 */
export function unsignedLE(bytes: Uint8Array, width: 4, count: number): Uint32Array;
export function unsignedLE(bytes: Uint8Array, width: 1 | 2 | 4, count: number): Uint8Array | Uint16Array | Uint32Array;
export function unsignedLE(bytes: Uint8Array, width: 1 | 2 | 4, count: number): Uint8Array | Uint16Array | Uint32Array {
  if (bytes.length < width * count) throw new RangeError("unexpected end of data");
  if (width === 1) return bytes.subarray(0, count);
  const { buffer, byteOffset } = bytes;
  if (LITTLE_ENDIAN && byteOffset % width === 0) return width === 2 ? new Uint16Array(buffer, byteOffset, count) : new Uint32Array(buffer, byteOffset, count);
  const out = width === 2 ? new Uint16Array(count) : new Uint32Array(count);
  const view = new DataView(buffer, byteOffset, width * count);
  for (let i = 0; i < count; i++) out[i] = width === 2 ? view.getUint16(2 * i, true) : view.getUint32(4 * i, true);
  return out;
}
