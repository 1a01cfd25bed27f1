// Posting lists of the keyword index: the compact base (CSR arrays, or the file's bytes decoded
// one term at a time), the merge that folds newly added postings into it, and the base's
// stored form. Portable.
import { ByteReader, ByteWriter } from "./bytes.js";
import { corruptKeywordData } from "./corrupt.js";

/** Postings of term t are docs/tfs[offsets[t], offsets[t + 1]), for t < termCount. */
export interface BasePostings {
  termCount: number;
  offsets: Uint32Array;
  docs: Uint32Array;
  /** Weighted term frequencies, capped at 255. */
  tfs: Uint8Array;
}

/**
 * A new base with the postings of `base` and `delta` (term id → [doc, tf, doc, tf, …]) for terms
 * [0, termCount), doc numbers mapped through `remap` (-1: the document is dropped).
 */
export function mergePostings(base: BasePostings, delta: Map<number, number[]>, termCount: number, remap: Int32Array): CsrPostings {
  // Count surviving postings per term, then fill: two passes, no intermediate arrays.
  const counts = new Uint32Array(termCount);
  for (let t = 0; t < termCount; t++) {
    let c = 0;
    if (t < base.termCount) {
      for (let i = base.offsets[t]; i < base.offsets[t + 1]; i++) if (remap[base.docs[i]] >= 0) c++;
    }
    const list = delta.get(t);
    if (list) for (let i = 0; i < list.length; i += 2) if (remap[list[i]] >= 0) c++;
    counts[t] = c;
  }
  // Term ids stay as they are; a term left without postings keeps an empty range.
  let total = 0;
  for (let t = 0; t < termCount; t++) total += counts[t];
  const offsets = new Uint32Array(termCount + 1);
  const docs = new Uint32Array(total);
  const tfs = new Uint8Array(total);
  let pos = 0;
  for (let t = 0; t < termCount; t++) {
    offsets[t] = pos;
    if (counts[t] === 0) continue;
    if (t < base.termCount) {
      for (let i = base.offsets[t]; i < base.offsets[t + 1]; i++) {
        const d = remap[base.docs[i]];
        if (d >= 0) {
          docs[pos] = d;
          tfs[pos++] = base.tfs[i];
        }
      }
    }
    const list = delta.get(t);
    if (list) {
      for (let i = 0; i < list.length; i += 2) {
        const d = remap[list[i]];
        if (d >= 0) {
          docs[pos] = d;
          tfs[pos++] = list[i + 1];
        }
      }
    }
  }
  offsets[termCount] = pos;
  return new CsrPostings(termCount, offsets, docs, tfs);
}

/** Postings of the base as a search reads them: decoded arrays or the stored bytes alike. */
export interface PostingSource {
  readonly termCount: number;
  /** How many postings term t has. */
  count(t: number): number;
  /** Calls visit(doc, tf) for each posting of term t, in document order. */
  forEach(t: number, visit: (doc: number, tf: number) => void): void;
}

/** The base as decoded arrays: what merges build and what adds and merges need. */
export class CsrPostings implements PostingSource, BasePostings {
  constructor(
    readonly termCount: number,
    readonly offsets: Uint32Array,
    readonly docs: Uint32Array,
    readonly tfs: Uint8Array,
  ) {}

  static empty(): CsrPostings {
    return new CsrPostings(0, new Uint32Array(1), new Uint32Array(0), new Uint8Array(0));
  }

  count(t: number): number {
    return this.offsets[t + 1] - this.offsets[t];
  }

  forEach(t: number, visit: (doc: number, tf: number) => void): void {
    const end = this.offsets[t + 1];
    for (let i = this.offsets[t]; i < end; i++) visit(this.docs[i], this.tfs[i]);
  }
}

/**
 * The base as stored: per term its posting count, then (document-number gap, tf byte) pairs,
 * found through a table of where each term's postings start. A loaded index reads the few
 * terms a query has from these bytes and decodes all of them only when it changes.
 */
export class EncodedPostings implements PostingSource {
  private constructor(
    readonly termCount: number,
    private readonly bytes: Uint8Array,
    /** Byte where term t's postings start; starts[termCount] is the block's length. */
    private readonly starts: Uint32Array,
    private readonly docCount: number,
    /** Postings of all terms. */
    readonly total: number,
  ) {
    this.reader = new ByteReader(bytes);
  }

  /** Reads the bytes; its position is set at the start of each term read. */
  private readonly reader: ByteReader;

  /** Checks the start table against the block; each term's postings are checked as they are read. */
  static from(bytes: Uint8Array, startTable: Uint8Array, termCount: number, docCount: number, total: number): EncodedPostings {
    if (startTable.length !== (termCount + 1) * 4) throw new Error("posting table does not match the term count");
    const view = new DataView(startTable.buffer, startTable.byteOffset, startTable.length);
    const starts = new Uint32Array(termCount + 1);
    for (let t = 0; t <= termCount; t++) {
      starts[t] = view.getUint32(t * 4, true);
      if (t > 0 && starts[t] < starts[t - 1]) throw new Error("posting table out of order");
    }
    if (starts[0] !== 0 || starts[termCount] !== bytes.length) throw new Error("posting table does not match the postings");
    return new EncodedPostings(termCount, bytes, starts, docCount, total);
  }

  count(t: number): number {
    return this.reading(() => {
      this.reader.pos = this.starts[t];
      return this.reader.varint();
    });
  }

  forEach(t: number, visit: (doc: number, tf: number) => void): void {
    const r = this.reader;
    const end = this.starts[t + 1];
    this.reading(() => {
      r.pos = this.starts[t];
      let doc = 0;
      for (let count = r.varint(); count > 0; count--) {
        doc += r.varint();
        if (r.pos >= end || doc >= this.docCount) throw corruptKeywordData("posting refers to a missing document");
        visit(doc, r.u8());
      }
      if (r.pos !== end) throw corruptKeywordData("posting list length mismatch");
    });
  }

  /** Runs a read of the bytes; the reader's own errors (a varint running off the end) become damage. */
  private reading<T>(read: () => T): T {
    try {
      return read();
    } catch (err) {
      throw err instanceof RangeError ? corruptKeywordData(err.message) : err;
    }
  }

  /** Every term's postings decoded. */
  toCsr(): CsrPostings {
    const offsets = new Uint32Array(this.termCount + 1);
    const docs = new Uint32Array(this.total);
    const tfs = new Uint8Array(this.total);
    let at = 0;
    for (let t = 0; t < this.termCount; t++) {
      offsets[t] = at;
      if (at + this.count(t) > this.total) throw corruptKeywordData("posting lists overrun");
      this.forEach(t, (doc, tf) => {
        docs[at] = doc;
        tfs[at++] = tf;
      });
    }
    offsets[this.termCount] = at;
    if (at !== this.total) throw corruptKeywordData("posting count mismatch");
    return new CsrPostings(this.termCount, offsets, docs, tfs);
  }
}

/** The stored form of the postings of `terms` (in that order): the bytes EncodedPostings reads and its start table. */
export function encodePostings(base: BasePostings, terms: number[]): { bytes: Uint8Array; startTable: Uint8Array } {
  const w = new ByteWriter(Math.max(1 << 16, base.docs.length * 3));
  const startTable = new Uint8Array((terms.length + 1) * 4);
  const starts = new DataView(startTable.buffer);
  terms.forEach((t, i) => {
    starts.setUint32(i * 4, w.length, true);
    const start = base.offsets[t];
    const end = base.offsets[t + 1];
    w.varint(end - start);
    w.gapPairs(base.docs, base.tfs, start, end);
  });
  starts.setUint32(terms.length * 4, w.length, true);
  return { bytes: w.finish(), startTable };
}
