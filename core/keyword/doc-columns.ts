// The keyword index's per-document numbers (length, path, language, kind) as columns. Built by
// add() they are plain arrays; loaded they are typed arrays over the file's bytes, one fixed
// width each (1, 2 or 4 bytes, the least that holds the column's largest value), so a load
// neither decodes 4 numbers per document nor holds them as JavaScript arrays: at 300k chunks
// that was ~20 ms and ~10 MB of every searching process. Portable.
import type { ByteReader, ByteWriter } from "./bytes.js";
import { unsignedLE } from "../little-endian.js";

/** One number per document, by document number. */
export type DocColumn = number[] | Uint8Array | Uint16Array | Uint32Array;

/** Typed columns this module made to be written; a loaded column is a view of its file's bytes. */
const writable = new WeakSet<Uint32Array>();

/**
 * The column, ready for add() to write documents [used, room) by number: a plain array grows as
 * it is written; a loaded column is copied once into a Uint32Array with spare room (a native
 * copy, whatever its width), grown the same way when full. Array.from() of a loaded index's four
 * columns was ~60 ms of every process that replayed a keyword delta at 100k files.
 */
export function withRoom(column: DocColumn, used: number, room: number): DocColumn {
  if (Array.isArray(column)) return column;
  if (column instanceof Uint32Array && writable.has(column) && column.length >= room) return column;
  const copy = new Uint32Array(Math.max(room, used + (used >> 2) + 1024));
  copy.set(column.subarray(0, used));
  writable.add(copy);
  return copy;
}

/**
 * Writes `count` values (`valueOf(d)` for each document, non-negative integers below 2^32) as:
 * their width in bytes (u8), zero bytes up to a multiple of that width from the start of the
 * file, then the values little-endian.
 */
export function writeColumn(w: ByteWriter, count: number, valueOf: (doc: number) => number): void {
  let max = 0;
  for (let d = 0; d < count; d++) max = Math.max(max, valueOf(d));
  const width = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
  w.u8(width);
  while (w.length % width !== 0) w.u8(0);
  const bytes = new Uint8Array(count * width);
  const view = new DataView(bytes.buffer);
  for (let d = 0; d < count; d++) {
    if (width === 1) bytes[d] = valueOf(d);
    else if (width === 2) view.setUint16(2 * d, valueOf(d), true);
    else view.setUint32(4 * d, valueOf(d), true);
  }
  w.raw(bytes);
}

/**
 * Reads a column writeColumn wrote, `r` reading a buffer that starts at the file's first byte. A
 * view of the bytes where their alignment allows (always, for a file read into its own buffer),
 * else a copy. Throws if a value is `limit` or more (a reference outside its table).
 */
export function readColumn(r: ByteReader, count: number, limit = Infinity): DocColumn {
  const width = r.u8();
  if (width !== 1 && width !== 2 && width !== 4) throw new Error(`document column of width ${width}`);
  r.raw((width - (r.pos % width)) % width);
  const column = unsignedLE(r.raw(count * width), width, count);
  if (limit !== Infinity) {
    let max = 0;
    for (let d = 0; d < count; d++) if (column[d] > max) max = column[d];
    if (count > 0 && max >= limit) throw new Error("metadata reference out of range");
  }
  return column;
}
