// A table of strings kept as the one UTF-8 block they were stored in, each decoded when asked
// for: a process that searches a loaded index looks up a few dozen of its 300k+ terms, and
// splitting the whole block into strings was most of the cost (and garbage) of loading it.
// Portable.
import { corruptKeywordData } from "./corrupt.js";
import { runAtOnce, type Steps } from "../yield.js";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A stored table keeps where every SPARSE_EVERY-th string starts (sparseStarts), so a load finds
 * no string boundary by itself: a lookup finds its own, SPARSE_EVERY strings at most. Finding all
 * 400k boundaries of a 100k-file index's terms and paths cost ~25 ms of every one-off query, and
 * checking their order another ~20 ms.
 */
export const SPARSE_EVERY = 64;

/** Bytes of a block toArraySteps() decodes between pauses. */
const DECODE_SLICE_BYTES = 256 * 1024;

export class PackedStrings {
  /**
   * Per group of SPARSE_EVERY strings, 1 once its starts are in `starts` and it is checked; null
   * when every start is (a table read from a full scan of its block).
   */
  private ready: Uint8Array | null = null;
  /** Where string g·SPARSE_EVERY starts, per group g, as stored (u32 LE; a table read with sparse starts). */
  private sparse: DataView | null = null;
  /** Whether the table says its strings are in strictly increasing order (checked as groups are read). */
  private inOrder = false;

  private constructor(
    /** The strings' UTF-8 bytes, each followed by a NUL. */
    private readonly block: Uint8Array,
    /** Byte where string i starts; starts[count] is one past the block's end. */
    private readonly starts: Uint32Array,
  ) {}

  /** The table of a NUL-joined block (as keyword-format.ts writes it); throws unless it holds `expected` strings. */
  static fromBlock(block: Uint8Array, expected: number): PackedStrings {
    const starts = new Uint32Array(expected + 1);
    let n = 0;
    if (expected > 0) {
      starts[n++] = 0;
      for (let i = block.indexOf(0); i >= 0; i = block.indexOf(0, i + 1)) {
        if (n > expected) throw new Error(`expected ${expected} strings, found more`);
        starts[n++] = i + 1;
      }
      // The block joins strings with NUL and has none after the last: its end closes it.
      if (n !== expected) throw new Error(`expected ${expected} strings, found ${n}`);
      starts[expected] = block.length + 1;
    } else if (block.length > 0) {
      throw new Error("expected 0 strings, found some");
    }
    return new PackedStrings(block, starts);
  }

  /**
   * The table of `count` strings in a NUL-joined block with the starts sparseStarts() gave, for a
   * table `inOrder` in strictly increasing order (as lookups by binary search need). Checks only
   * that there is a start per group: each group's start, boundaries and order (against its
   * neighbours' first strings) are checked when a lookup first reads the group, with the same
   * "corrupt" error a damaged posting list gives. Checking all 6k group starts and their order
   * at load was ~15 ms of every one-off query at 100k files, where a query reads a few dozen.
   */
  static fromSparse(block: Uint8Array, count: number, sparseBytes: Uint8Array, inOrder: boolean): PackedStrings {
    const groups = Math.ceil(count / SPARSE_EVERY);
    if (sparseBytes.length !== groups * 4) throw new Error(`expected ${groups} string group starts, found ${sparseBytes.length / 4}`);
    if (count === 0 && block.length > 0) throw new Error("expected 0 strings, found some");
    const starts = new Uint32Array(count + 1);
    starts[count] = block.length + 1;
    const table = new PackedStrings(block, starts);
    table.sparse = new DataView(sparseBytes.buffer, sparseBytes.byteOffset, sparseBytes.length);
    table.ready = new Uint8Array(groups);
    table.inOrder = inOrder;
    return table;
  }

  get length(): number {
    return this.starts.length - 1;
  }

  get(i: number): string {
    return decoder.decode(this.block.subarray(this.start(i), this.start(i + 1) - 1));
  }

  /**
   * The position of each of `values` in the table (the first, if one is there twice); values
   * not in it are left out. One pass over the bytes, hashing each string rather than decoding
   * it: finding a few ids among 100k costs ~10 ms, a map of them all several times that.
   */
  positionsOf(values: Iterable<string>): Map<string, number> {
    const wanted = new Map<number, string[]>();
    for (const v of values) {
      const bytes = encoder.encode(v);
      const h = hashBytes(bytes, 0, bytes.length);
      const list = wanted.get(h);
      if (list) list.push(v);
      else wanted.set(h, [v]);
    }
    const out = new Map<string, number>();
    if (wanted.size === 0) return out;
    for (let i = 0; i < this.length; i++) {
      const candidates = wanted.get(hashBytes(this.block, this.start(i), this.start(i + 1) - 1));
      if (!candidates) continue;
      const value = this.get(i);
      if (candidates.includes(value) && !out.has(value)) out.set(value, i);
    }
    return out;
  }

  /**
   * The position of `value` in a table in strictly increasing order (as loaded tables are), or
   * -1: a binary search on the bytes, first over the groups' first strings (where they start is
   * stored, so no group is read), then inside the one group that may hold it. Comparing get()'s
   * strings decoded ~18 strings a lookup and read as many groups: replaying a few keyword deltas
   * at 100k files spent ~35 ms looking up their terms.
   */
  find(value: string): number {
    if (this.length === 0) return -1;
    const bytes = encoder.encode(value);
    const groups = Math.ceil(this.length / SPARSE_EVERY);
    // The last group whose first string is at most the value.
    let group = -1;
    for (let lo = 0, hi = groups - 1; lo <= hi; ) {
      const mid = (lo + hi) >>> 1;
      const order = compareWith(this.block, this.firstStart(mid), this.firstEndOf(mid), bytes, value);
      if (order === 0) return mid * SPARSE_EVERY;
      if (order < 0) {
        group = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (group < 0) return -1;
    for (let lo = group * SPARSE_EVERY + 1, hi = Math.min(this.length, (group + 1) * SPARSE_EVERY) - 1; lo <= hi; ) {
      const mid = (lo + hi) >>> 1;
      const order = compareWith(this.block, this.start(mid), this.start(mid + 1) - 1, bytes, value);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Where group g's first string starts. */
  private firstStart(g: number): number {
    return this.ready === null ? this.starts[g * SPARSE_EVERY] : this.groupStart(g);
  }

  /** One past the last byte of group g's first string. */
  private firstEndOf(g: number): number {
    return this.ready === null ? this.starts[g * SPARSE_EVERY + 1] - 1 : this.firstEnd(g);
  }

  /** Every string, decoded at once (far cheaper than one get() each). */
  toArray(): string[] {
    return runAtOnce(this.toArraySteps());
  }

  /** toArray() in steps: the block decoded a slice at a time (at 100k files its terms took ~200 ms at once). */
  *toArraySteps(): Steps<string[]> {
    if (this.length === 0) return [];
    const slices: string[][] = [];
    const { block } = this;
    for (let from = 0; from <= block.length; ) {
      yield;
      // Cut after a NUL, so no string is split.
      const nul = from + DECODE_SLICE_BYTES >= block.length ? -1 : block.indexOf(0, from + DECODE_SLICE_BYTES);
      const to = nul < 0 ? block.length : nul;
      slices.push(decoder.decode(block.subarray(from, to)).split("\0"));
      from = to + 1;
    }
    const all = slices.length === 1 ? slices[0] : slices.flat();
    if (all.length !== this.length) throw corruptKeywordData(`expected ${this.length} strings, found ${all.length}`);
    return all;
  }

  /**
   * Whether the strings are in strictly increasing JavaScript string order (what a binary
   * search by get() needs), checked on the bytes: for ASCII, byte order is that order; a pair
   * that first differs in a non-ASCII byte is decoded and compared as strings (UTF-8 orders by
   * code point, JavaScript by UTF-16 unit: astral and U+E000–U+FFFF characters disagree).
   */
  isStrictlySorted(): boolean {
    for (let i = 1; i < this.length; i++) {
      if (compareStrings(this.block, this.start(i - 1), this.start(i) - 1, this.start(i), this.start(i + 1) - 1) >= 0) return false;
    }
    return true;
  }

  /** Where string i starts (i = length: one past the block's end). */
  private start(i: number): number {
    if (this.ready === null || i === this.length) return this.starts[i];
    const g = Math.floor(i / SPARSE_EVERY);
    if (this.ready[g] === 0) this.readGroup(g);
    return this.starts[i];
  }

  /** Where group g's first string starts, as stored (unchecked). */
  private groupStart(g: number): number {
    return this.sparse!.getUint32(g * 4, true);
  }

  /** One past the last byte of group g's first string. */
  private firstEnd(g: number): number {
    const nul = this.block.indexOf(0, this.groupStart(g));
    // The table's last string has no NUL after it.
    if (g * SPARSE_EVERY + 1 === this.length) return nul < 0 ? this.block.length : corrupted("a NUL after the last string");
    return nul >= 0 ? nul : corrupted("string table ends early");
  }

  /** Finds group g's string boundaries and checks them, its start and its strings' order. */
  private readGroup(g: number): void {
    const { block, starts } = this;
    const from = g * SPARSE_EVERY;
    const to = Math.min(this.length, from + SPARSE_EVERY);
    const last = (g + 1) * SPARSE_EVERY >= this.length;
    const first = this.groupStart(g);
    // The first group starts the block; any other after the one before, just after a NUL.
    if (g === 0 ? first !== 0 : first <= this.groupStart(g - 1) || first > block.length || block[first - 1] !== 0) corrupted("string group starts out of order");
    // The group's bytes run to the NUL before the next group's first string, or to the block's end.
    const end = last ? block.length : this.groupStart(g + 1) - 1;
    let at = (starts[from] = first);
    for (let i = from + 1; i < to; i++) {
      const nul = block.indexOf(0, at);
      if (nul < 0 || nul >= end) corrupted("string table boundaries");
      at = starts[i] = nul + 1;
    }
    const nul = block.indexOf(0, at);
    if (last ? nul >= 0 : nul !== end) corrupted("string table boundaries");
    if (this.inOrder) this.checkGroupOrder(g, from, to, end);
    this.ready![g] = 1;
  }

  /**
   * Group g's strings [from, to), ending at `end`, in strictly increasing order, after the
   * previous group's first string and before the next group's first.
   */
  private checkGroupOrder(g: number, from: number, to: number, end: number): void {
    const { block, starts } = this;
    const endOf = (i: number) => (i + 1 < to ? starts[i + 1] - 1 : end);
    if (g > 0 && compareStrings(block, this.groupStart(g - 1), this.firstEnd(g - 1), starts[from], endOf(from)) >= 0) corrupted("string groups out of order");
    for (let i = from + 1; i < to; i++) {
      if (compareStrings(block, starts[i - 1], starts[i] - 1, starts[i], endOf(i)) >= 0) corrupted("string table out of order");
    }
    if (to < this.length && compareStrings(block, starts[to - 1], end, this.groupStart(g + 1), this.firstEnd(g + 1)) >= 0) corrupted("string table out of order");
  }
}

function corrupted(why: string): never {
  throw corruptKeywordData(why);
}

/** Where every SPARSE_EVERY-th string of a NUL-joined block of `count` strings starts, as the u32 LE bytes fromSparse reads. */
export function sparseStarts(block: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(Math.ceil(count / SPARSE_EVERY) * 4);
  const view = new DataView(out.buffer);
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (i % SPARSE_EVERY === 0) view.setUint32((i / SPARSE_EVERY) * 4, at, true);
    if (i + 1 < count) at = block.indexOf(0, at) + 1;
  }
  return out;
}

/** Order of the strings [aStart, aEnd) and [bStart, bEnd) of a block: JavaScript's string order (see isStrictlySorted). */
function compareStrings(block: Uint8Array, aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  const order = compareAscii(block, aStart, aEnd, bStart, bEnd);
  if (order !== 0 || (aEnd - aStart === bEnd - bStart && bytesEqual(block, aStart, bStart, aEnd - aStart))) return order;
  const a = decoder.decode(block.subarray(aStart, aEnd));
  const b = decoder.decode(block.subarray(bStart, bEnd));
  return a < b ? -1 : a > b ? 1 : 0;
}

function bytesEqual(block: Uint8Array, a: number, b: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (block[a + k] !== block[b + k]) return false;
  return true;
}

/** Byte order of two strings: -1 or 1, or 0 when equal or when they first differ outside ASCII (undecided). */
function compareAscii(block: Uint8Array, aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  const n = Math.min(aEnd - aStart, bEnd - bStart);
  for (let k = 0; k < n; k++) {
    const x = block[aStart + k];
    const y = block[bStart + k];
    if (x === y) continue;
    if (x >= 0x80 || y >= 0x80) return 0;
    return x < y ? -1 : 1;
  }
  const d = aEnd - aStart - (bEnd - bStart);
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

/** Order of the string [start, end) of a block against `value` (its UTF-8 `bytes`), as compareStrings orders. */
function compareWith(block: Uint8Array, start: number, end: number, bytes: Uint8Array, value: string): number {
  const n = Math.min(end - start, bytes.length);
  for (let k = 0; k < n; k++) {
    const x = block[start + k];
    const y = bytes[k];
    if (x === y) continue;
    if (x < 0x80 && y < 0x80) return x < y ? -1 : 1;
    const s = decoder.decode(block.subarray(start, end));
    return s < value ? -1 : s > value ? 1 : 0;
  }
  const d = end - start - bytes.length;
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

/** FNV-1a over bytes [start, end). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ bytes[k], 0x01000193);
  return h >>> 0;
}
