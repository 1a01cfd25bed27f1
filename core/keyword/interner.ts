// String ↔ number tables for the keyword index: repeated metadata values (paths, languages,
// kinds) are stored once and referred to by number. A loaded table stays in the file's packed,
// sorted form (a search decodes the few values it shows or filters on and binary-searches the
// files it scores); values added after the load (a delta file's new paths) follow it in a
// small list of their own, until a merge or a write asks for every value. Portable.
import type { PackedStrings } from "./packed-strings.js";

/** Tables up to this many values are decoded when loaded. */
const DECODE_AT_ONCE = 1024;

/** Small string ↔ number table for repeated metadata values. */
export class Interner {
  /** Values as loaded, in string order; null once `list` holds them. */
  private packed: PackedStrings | null = null;
  private list: string[] = [];
  /** Values of `packed` decoded so far, by number. */
  private decoded: Array<string | undefined> | null = null;
  /**
   * The same values by value: a value decoded once (a hit's path) is looked up again without a
   * binary search. A one-off search at 100k files looked up its ~200 candidates' files that way,
   * ~17 decodes and compares each: ~12 ms.
   */
  private decodedNumbers: Map<string, number> | null = null;
  /** value → number while the table is a plain list (not loaded, or decoded whole). */
  private valueMap: Map<string, number> | null = new Map();
  /**
   * Values added to a packed table, numbered after it. Decoding and mapping the whole table for
   * them cost a one-off search at 100k files ~100 ms whenever a delta file held a new path.
   */
  private added: string[] = [];
  private addedNumbers: Map<string, number> | null = null;

  /**
   * A table read from a file: `packed` must be in strictly increasing string order. A small one
   * (languages, kinds) is decoded at once: a search reads its values for every candidate.
   */
  static loaded(packed: PackedStrings): Interner {
    const i = new Interner();
    i.valueMap = null;
    if (packed.length <= DECODE_AT_ONCE) i.list = packed.toArray();
    else i.packed = packed;
    return i;
  }

  intern(value: string): number {
    if (this.packed) {
      let n = this.lookup(value);
      if (n === undefined) {
        n = this.packed.length + this.added.length;
        this.added.push(value);
        (this.addedNumbers ??= new Map()).set(value, n);
      }
      return n;
    }
    const map = this.map();
    let n = map.get(value);
    if (n === undefined) {
      n = this.list.length;
      this.list.push(value);
      map.set(value, n);
    }
    return n;
  }

  lookup(value: string): number | undefined {
    if (this.valueMap) return this.valueMap.get(value);
    if (!this.packed) return this.map().get(value);
    const known = this.decodedNumbers?.get(value) ?? this.addedNumbers?.get(value);
    if (known !== undefined) return known;
    const n = this.packed.find(value);
    return n >= 0 ? n : undefined;
  }

  value(n: number): string {
    if (!this.packed) return this.list[n];
    if (n >= this.packed.length) return this.added[n - this.packed.length];
    // Decoded once each: a path filter reads the path of every candidate, query after query.
    // Filled, not holey: V8 keeps a large holey array as a slow dictionary.
    this.decoded ??= new Array<string | undefined>(this.packed.length).fill(undefined);
    let value = this.decoded[n];
    if (value === undefined) {
      value = this.decoded[n] = this.packed.get(n);
      (this.decodedNumbers ??= new Map()).set(value, n); // a packed table's values are distinct
    }
    return value;
  }

  /**
   * For a loaded table still packed: ranges [from, to) of the numbers of the values that start
   * with one of the prefixes, one per prefix over the sorted part (a sorted table keeps them
   * together) and one per matching value added since. Null for a plain list.
   */
  prefixRanges(prefixes: string[]): Array<[from: number, to: number]> | null {
    if (!this.packed) return null;
    const ranges = prefixes.map((prefix): [number, number] => {
      const from = this.firstWhere(0, (v) => v >= prefix);
      return [from, this.firstWhere(from, (v) => !v.startsWith(prefix))];
    });
    const first = this.packed.length;
    this.added.forEach((v, i) => {
      if (prefixes.some((prefix) => v.startsWith(prefix))) ranges.push([first + i, first + i + 1]);
    });
    return ranges;
  }

  /** The first number ≥ `from` whose value meets `test`, which must hold from some number on. */
  private firstWhere(from: number, test: (value: string) => boolean): number {
    let lo = from;
    let hi = this.packed ? this.packed.length : this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (test(this.value(mid))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Every value by number (decodes a loaded table). */
  values(): string[] {
    if (this.packed) {
      this.list = this.packed.toArray();
      for (const v of this.added) this.list.push(v);
      this.packed = null;
      this.added = [];
      this.addedNumbers = null;
      this.valueMap = null;
      this.decoded = null;
      this.decodedNumbers = null;
    }
    return this.list;
  }

  get size(): number {
    return this.packed ? this.packed.length + this.added.length : this.list.length;
  }

  private map(): Map<string, number> {
    return (this.valueMap ??= indexOf(this.values()));
  }
}

/** value → position, built with a plain loop (no temporary pair arrays). */
function indexOf(values: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < values.length; i++) map.set(values[i], i);
  return map;
}
