// Document ids that are 32 lower-case hex digits (every chunk id the indexer makes) kept as the
// 16 bytes they spell: half the bytes of the text form in a keyword file, and no separators to
// find when it loads. Answers like a PackedStrings table of the same ids. Portable.

/** What the keyword index asks of its loaded ids (PackedStrings answers too). */
export interface IdTable {
  readonly length: number;
  get(i: number): string;
  positionsOf(values: Iterable<string>): Map<string, number>;
  toArray(): string[];
}

/** Bytes of an id kept as bytes: the 32 hex digits of a chunk id (core/indexing/hash.ts). */
export const ID_BYTES = 16;
const HEX_ID = /^[0-9a-f]{32}$/;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
/** Character codes of the hex digits 0-f. */
const HEX_CODES = Uint8Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const latin1 = new TextDecoder("latin1");

/** Whether an id can be kept as bytes: 32 lower-case hex digits, as the indexer's chunk ids are. */
export function isHexId(id: string): boolean {
  return HEX_ID.test(id);
}

/** Whether every id can be kept as bytes. */
export function allHexIds(ids: readonly string[]): boolean {
  for (const id of ids) if (!isHexId(id)) return false;
  return true;
}

/** The ids' bytes, one after another (each id must pass allHexIds). */
export function hexIdBytes(ids: readonly string[]): Uint8Array {
  const out = new Uint8Array(ids.length * ID_BYTES);
  for (let i = 0; i < ids.length; i++) writeId(ids[i], out, i * ID_BYTES);
  return out;
}

function writeId(id: string, out: Uint8Array, at: number): void {
  // By character codes: a slice and a parseInt per byte cost ~120 ms of a snapshot at 100k files.
  for (let k = 0; k < ID_BYTES; k++) out[at + k] = (hexDigit(id.charCodeAt(2 * k)) << 4) | hexDigit(id.charCodeAt(2 * k + 1));
}

/** The value of a lower-case hex digit's character code (the id passed isHexId). */
function hexDigit(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}

export class HexIds implements IdTable {
  private constructor(private readonly block: Uint8Array) {}

  /** The table of a block hexIdBytes wrote; throws unless it holds `expected` ids. */
  static fromBlock(block: Uint8Array, expected: number): HexIds {
    if (block.length !== expected * ID_BYTES) throw new Error(`expected ${expected} ids of ${ID_BYTES} bytes, found ${block.length} bytes`);
    return new HexIds(block);
  }

  get length(): number {
    return this.block.length / ID_BYTES;
  }

  get(i: number): string {
    let s = "";
    for (let k = i * ID_BYTES, end = k + ID_BYTES; k < end; k++) s += HEX[this.block[k]];
    return s;
  }

  /** The position of each of `values` in the table (the first, if one is there twice); others are left out. */
  positionsOf(values: Iterable<string>): Map<string, number> {
    // Keyed by an id's first four bytes: one read per row finds the few candidates.
    const wanted = new Map<number, Array<{ id: string; bytes: Uint8Array }>>();
    const bytes = new Uint8Array(ID_BYTES);
    for (const id of values) {
      if (!isHexId(id)) continue;
      writeId(id, bytes, 0);
      const key = head(bytes, 0);
      const list = wanted.get(key) ?? [];
      list.push({ id, bytes: bytes.slice() });
      wanted.set(key, list);
    }
    const out = new Map<string, number>();
    if (wanted.size === 0) return out;
    const { block } = this;
    for (let i = 0, at = 0; at < block.length; i++, at += ID_BYTES) {
      const candidates = wanted.get(head(block, at));
      if (!candidates) continue;
      for (const c of candidates) if (!out.has(c.id) && sameBytes(c.bytes, block, at)) out.set(c.id, i);
    }
    return out;
  }

  toArray(): string[] {
    // The whole table spelled out once, then cut: id by id, 16 appends each built ropes that
    // cost ~250 ms at 100k files.
    const { block } = this;
    const text = new Uint8Array(block.length * 2);
    for (let i = 0; i < block.length; i++) {
      text[2 * i] = HEX_CODES[block[i] >> 4];
      text[2 * i + 1] = HEX_CODES[block[i] & 15];
    }
    const all = latin1.decode(text);
    const width = 2 * ID_BYTES;
    return Array.from({ length: this.length }, (_, i) => all.slice(i * width, (i + 1) * width));
  }
}

function head(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function sameBytes(id: Uint8Array, block: Uint8Array, at: number): boolean {
  for (let k = 0; k < ID_BYTES; k++) if (id[k] !== block[at + k]) return false;
  return true;
}
