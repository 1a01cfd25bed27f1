// A table of strings kept as the one UTF-8 block they were stored in, each decoded when asked
// for: a process that searches a loaded index looks up a few dozen of its 300k+ terms, and
// splitting the whole block into strings was most of the cost (and garbage) of loading it.
// Portable.

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class PackedStrings {
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
      // indexOf is the engine's own search: a loop over every byte, run once per process
      // before it is optimised, took ~25 ms of a one-off query at 100k files.
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

  get length(): number {
    return this.starts.length - 1;
  }

  get(i: number): string {
    return decoder.decode(this.block.subarray(this.starts[i], this.starts[i + 1] - 1));
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
    const { block, starts } = this;
    for (let i = 0; i < this.length; i++) {
      const candidates = wanted.get(hashBytes(block, starts[i], starts[i + 1] - 1));
      if (!candidates) continue;
      const value = this.get(i);
      if (candidates.includes(value) && !out.has(value)) out.set(value, i);
    }
    return out;
  }

  /** Every string, decoded at once (far cheaper than one get() each). */
  toArray(): string[] {
    return this.length === 0 ? [] : decoder.decode(this.block).split("\0");
  }

  /**
   * Whether the strings are in strictly increasing JavaScript string order (what a binary
   * search by get() needs), checked on the bytes: for ASCII, byte order is that order; a pair
   * that first differs in a non-ASCII byte is decoded and compared as strings (UTF-8 orders by
   * code point, JavaScript by UTF-16 unit: astral and U+E000–U+FFFF characters disagree).
   */
  isStrictlySorted(): boolean {
    const { block, starts } = this;
    for (let i = 1; i < this.length; i++) {
      const order = compareAscii(block, starts[i - 1], starts[i] - 1, starts[i], starts[i + 1] - 1);
      if (order < 0) continue;
      if (order > 0) return false;
      if (!(this.get(i - 1) < this.get(i))) return false;
    }
    return true;
  }
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

/** FNV-1a over bytes [start, end). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ bytes[k], 0x01000193);
  return h >>> 0;
}
