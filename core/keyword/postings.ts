// Posting lists of the keyword index: the compact base (CSR arrays, or the file's bytes decoded
// one term at a time), the merge that folds newly added postings into it, and the base's
// stored form. Portable.
import { ByteReader, ByteWriter } from "./bytes.js";
import { corruptKeywordData } from "./corrupt.js";
import { inBlocks, type Steps } from "../yield.js";

/** Terms a long pass over every term handles between pauses (`Steps`). */
export const TERMS_PER_STEP = 4096;

/** Postings of term t are docs/tfs[offsets[t], offsets[t + 1]), for t < termCount. */
export interface BasePostings {
  termCount: number;
  offsets: Uint32Array;
  docs: Uint32Array;
  /** Weighted term frequencies, capped at 255. */
  tfs: Uint8Array;
}

/** Postings a pass over a delta's log handles between pauses (`Steps`). */
const POSTINGS_PER_STEP = 65_536;

/**
 * A new base with the postings of `base` and then `delta` for terms [0, termCount), doc numbers
 * mapped through `remap` (-1: the document is dropped; null: every number stays). The delta is
 * read as it was added, not grouped by term first (a copy of it at every merge). In steps: a
 * pause every TERMS_PER_STEP terms and every POSTINGS_PER_STEP of the delta's postings.
 */
export function* mergePostingsSteps(base: BasePostings, delta: DeltaPostings, termCount: number, remap: Int32Array | null): Steps<CsrPostings> {
  const { terms: logTerms, docs: logDocs, tfs: logTfs, length: logLength } = delta.log();
  const baseTerms = Math.min(base.termCount, termCount);
  // Count surviving postings per term, then fill: two passes, no intermediate arrays.
  const counts = new Uint32Array(termCount);
  yield* inBlocks(baseTerms, TERMS_PER_STEP, (from, to) => {
    for (let t = from; t < to; t++) {
      if (remap === null) counts[t] = base.offsets[t + 1] - base.offsets[t];
      else for (let i = base.offsets[t]; i < base.offsets[t + 1]; i++) if (remap[base.docs[i]] >= 0) counts[t]++;
    }
  });
  yield* inBlocks(logLength, POSTINGS_PER_STEP, (from, to) => {
    for (let i = from; i < to; i++) if (remap === null || remap[logDocs[i]] >= 0) counts[logTerms[i]]++;
  });
  // Term ids stay as they are; a term left without postings keeps an empty range.
  const offsets = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t] + counts[t];
  const docs = new Uint32Array(offsets[termCount]);
  const tfs = new Uint8Array(offsets[termCount]);
  // Each term's base postings first; `counts` becomes where its next delta posting goes.
  yield* inBlocks(termCount, TERMS_PER_STEP, (from, to) => {
    for (let t = from; t < to; t++) {
      let p = offsets[t];
      if (t < baseTerms) {
        for (let i = base.offsets[t]; i < base.offsets[t + 1]; i++) {
          const d = remap === null ? base.docs[i] : remap[base.docs[i]];
          if (d >= 0) {
            docs[p] = d;
            tfs[p++] = base.tfs[i];
          }
        }
      }
      counts[t] = p;
    }
  });
  // Then the delta's, in the order added: each term's in document order.
  yield* inBlocks(logLength, POSTINGS_PER_STEP, (from, to) => {
    for (let i = from; i < to; i++) {
      const d = remap === null ? logDocs[i] : remap[logDocs[i]];
      if (d < 0) continue;
      const p = counts[logTerms[i]]++;
      docs[p] = d;
      tfs[p] = logTfs[i];
    }
  });
  return new CsrPostings(termCount, offsets, docs, tfs);
}

/** Room for postings a delta starts with. */
const DELTA_INITIAL_ROOM = 4096;

/**
 * Postings added since the last merge, as they came: (term, doc, tf) in three growing typed
 * arrays, no array per term. A first index at 100k files held one JS array per term of its
 * delta (~16 bytes a posting, and garbage at every merge); here a posting is 9 bytes. A search
 * reads them grouped by term (`TermGroups`, each term's documents still in order), grouped again
 * only after further additions; a merge reads them as they were added.
 */
export class DeltaPostings implements PostingSource {
  private terms = new Uint32Array(DELTA_INITIAL_ROOM);
  private docs = new Uint32Array(DELTA_INITIAL_ROOM);
  private tfs = new Uint8Array(DELTA_INITIAL_ROOM);
  private length = 0;
  /** One past the largest term id added. */
  private termLimit = 0;
  private grouped: PostingSource | null = null;

  /** Postings added. */
  get size(): number {
    return this.length;
  }

  get termCount(): number {
    return this.termLimit;
  }

  /** Adds a posting; a term's postings must come in document order. */
  push(term: number, doc: number, tf: number): void {
    if (this.length === this.terms.length) this.grow();
    this.terms[this.length] = term;
    this.docs[this.length] = doc;
    this.tfs[this.length] = tf;
    this.length++;
    if (term >= this.termLimit) this.termLimit = term + 1;
    this.grouped = null;
  }

  count(t: number): number {
    return t < this.termLimit ? this.byTerm().count(t) : 0;
  }

  forEach(t: number, visit: (doc: number, tf: number) => void): void {
    if (t < this.termLimit) this.byTerm().forEach(t, visit);
  }

  /** The postings as added: posting i is (terms[i], docs[i], tfs[i]), for i < length. */
  log(): { terms: Uint32Array; docs: Uint32Array; tfs: Uint8Array; length: number } {
    return { terms: this.terms, docs: this.docs, tfs: this.tfs, length: this.length };
  }

  /**
   * The postings grouped by term: what a search reads. Term by term through a table of every
   * term up to the largest added, or, for few postings among many terms (a small pass's delta
   * of a big index, which a serving process keeps until its next change), through the terms
   * that have any: its size follows the postings.
   */
  private byTerm(): PostingSource {
    if (this.grouped) return this.grouped;
    const { terms, docs, tfs, length, termLimit } = this;
    if (termLimit > 4 * length) return (this.grouped = TermGroups.of(terms, docs, tfs, length));
    const offsets = new Uint32Array(termLimit + 1);
    for (let i = 0; i < length; i++) offsets[terms[i] + 1]++;
    for (let t = 0; t < termLimit; t++) offsets[t + 1] += offsets[t];
    const next = offsets.slice(0, termLimit);
    const groupedDocs = new Uint32Array(length);
    const groupedTfs = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      const p = next[terms[i]]++;
      groupedDocs[p] = docs[i];
      groupedTfs[p] = tfs[i];
    }
    return (this.grouped = new CsrPostings(termLimit, offsets, groupedDocs, groupedTfs));
  }

  private grow(): void {
    const room = this.terms.length * 2;
    const terms = new Uint32Array(room);
    const docs = new Uint32Array(room);
    const tfs = new Uint8Array(room);
    terms.set(this.terms);
    docs.set(this.docs);
    tfs.set(this.tfs);
    this.terms = terms;
    this.docs = docs;
    this.tfs = tfs;
  }
}

/**
 * A delta's postings grouped by term, for the terms that have any: term k of `groupTerms` has
 * docs/tfs [starts[k], starts[k + 1]), found by binary search.
 */
class TermGroups implements PostingSource {
  private constructor(
    private readonly groupTerms: Uint32Array,
    private readonly starts: Uint32Array,
    private readonly docs: Uint32Array,
    private readonly tfs: Uint8Array,
  ) {}

  /** The first `length` postings grouped, each term's in the order added. */
  static of(terms: Uint32Array, docs: Uint32Array, tfs: Uint8Array, length: number): TermGroups {
    const order = Uint32Array.from({ length }, (_, i) => i).sort((a, b) => terms[a] - terms[b] || a - b);
    const groupTerms: number[] = [];
    const starts: number[] = [];
    const groupedDocs = new Uint32Array(length);
    const groupedTfs = new Uint8Array(length);
    for (let p = 0; p < length; p++) {
      const i = order[p];
      if (p === 0 || terms[i] !== terms[order[p - 1]]) {
        groupTerms.push(terms[i]);
        starts.push(p);
      }
      groupedDocs[p] = docs[i];
      groupedTfs[p] = tfs[i];
    }
    starts.push(length);
    return new TermGroups(Uint32Array.from(groupTerms), Uint32Array.from(starts), groupedDocs, groupedTfs);
  }

  get termCount(): number {
    return this.groupTerms.length === 0 ? 0 : this.groupTerms[this.groupTerms.length - 1] + 1;
  }

  count(t: number): number {
    const k = this.find(t);
    return k < 0 ? 0 : this.starts[k + 1] - this.starts[k];
  }

  forEach(t: number, visit: (doc: number, tf: number) => void): void {
    const k = this.find(t);
    if (k < 0) return;
    for (let p = this.starts[k]; p < this.starts[k + 1]; p++) visit(this.docs[p], this.tfs[p]);
  }

  private find(t: number): number {
    let lo = 0;
    let hi = this.groupTerms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.groupTerms[mid];
      if (at === t) return mid;
      if (at < t) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
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
 * Makes sure bytes [start, end) of a file are in memory: a file whose postings are read as
 * searches ask for them (keyword-files.ts); a no-op for bytes that are all there.
 */
export type EnsureBytes = (start: number, end: number) => void;

const inMemory: EnsureBytes = () => undefined;

/**
 * The base as stored: per term its posting count, then (document-number gap, tf byte) pairs,
 * found through a table of where each term's postings start (4-byte little-endian offsets). A
 * loaded index reads the few terms a query has from these bytes, checking each as it reads it,
 * and decodes all of them only when it changes.
 */
export class EncodedPostings implements PostingSource {
  private constructor(
    readonly termCount: number,
    /** Term t's postings start at startTable's t-th offset; the (termCount + 1)-th is the end. */
    private readonly startTable: DataView,
    private readonly bytes: Uint8Array,
    private readonly docCount: number,
    /** Postings of all terms. */
    readonly total: number,
    /** Brings in bytes of the file, by place: the start table's at tableAt, the postings' at postingsAt. */
    private readonly ensure: EnsureBytes,
    private readonly tableAt: number,
    private readonly postingsAt: number,
  ) {
    this.reader = new ByteReader(bytes);
  }

  /** Reads the bytes; its position is set at the start of each term read. */
  private readonly reader: ByteReader;

  /** Postings whose bytes are all in memory. */
  static from(bytes: Uint8Array, startTable: Uint8Array, termCount: number, docCount: number, total: number): EncodedPostings {
    return EncodedPostings.reading(bytes, startTable, termCount, docCount, total, inMemory);
  }

  /**
   * Postings in `file` (the start table at tableAt, then the postings), of which only what a read
   * needs is brought in, through `ensure` (by place in the file).
   */
  static inFile(file: Uint8Array, tableAt: number, postingsLength: number, termCount: number, docCount: number, total: number, ensure: EnsureBytes): EncodedPostings {
    const tableLength = (termCount + 1) * 4;
    const postingsAt = tableAt + tableLength;
    if (postingsAt + postingsLength > file.length) throw new Error("postings run past the file");
    const table = file.subarray(tableAt, postingsAt);
    return EncodedPostings.reading(file.subarray(postingsAt, postingsAt + postingsLength), table, termCount, docCount, total, ensure, tableAt, postingsAt);
  }

  private static reading(bytes: Uint8Array, startTable: Uint8Array, termCount: number, docCount: number, total: number, ensure: EnsureBytes, tableAt = 0, postingsAt = 0): EncodedPostings {
    if (startTable.length !== (termCount + 1) * 4) throw new Error("posting table does not match the term count");
    const table = new DataView(startTable.buffer, startTable.byteOffset, startTable.length);
    return new EncodedPostings(termCount, table, bytes, docCount, total, ensure, tableAt, postingsAt);
  }

  count(t: number): number {
    return this.reading(() => {
      const [start, end] = this.range(t);
      this.reader.pos = start;
      const n = this.reader.varint();
      if (this.reader.pos > end) throw corruptKeywordData("posting list length mismatch");
      return n;
    });
  }

  forEach(t: number, visit: (doc: number, tf: number) => void): void {
    const r = this.reader;
    this.reading(() => {
      const [start, end] = this.range(t);
      r.pos = start;
      let doc = 0;
      for (let count = r.varint(); count > 0; count--) {
        doc += r.varint();
        if (r.pos >= end || doc >= this.docCount) throw corruptKeywordData("posting refers to a missing document");
        visit(doc, r.u8());
      }
      if (r.pos !== end) throw corruptKeywordData("posting list length mismatch");
    });
  }

  /** Where term t's postings lie, checked against the table's neighbours and the postings' end; the bytes brought in. */
  private range(t: number): [start: number, end: number] {
    if (!(t >= 0 && t < this.termCount)) throw corruptKeywordData("term out of range");
    const fresh = this.ensure !== inMemory && !this.allBrought && !this.brought.has(t);
    if (fresh) this.ensure(this.tableAt + t * 4, this.tableAt + t * 4 + 8);
    const start = this.startTable.getUint32(t * 4, true);
    const end = this.startTable.getUint32(t * 4 + 4, true);
    if (start > end || end > this.bytes.length || (t === 0 && start !== 0)) throw corruptKeywordData("posting table out of order");
    if (fresh) {
      this.ensure(this.postingsAt + start, this.postingsAt + end);
      this.brought.add(t); // a search reads its terms' postings twice (chunks, then files)
    }
    return [start, end];
  }

  /** Terms whose postings were brought in. */
  private readonly brought = new Set<number>();
  /** Whether all of the postings were brought in (then no term asks for its bytes again). */
  private allBrought = false;

  /** Runs a read of the bytes; the reader's own errors (a varint running off the end) become damage. */
  private reading<T>(read: () => T): T {
    try {
      return read();
    } catch (err) {
      throw err instanceof RangeError ? corruptKeywordData(err.message) : err;
    }
  }

  /** Every term's postings decoded, in steps. */
  *toCsrSteps(): Steps<CsrPostings> {
    this.ensure(this.tableAt, this.postingsAt + this.bytes.length);
    // Asked term by term, a file still partly pending would be read again in a call per term.
    this.allBrought = true;
    if (this.termCount > 0 && this.startTable.getUint32(this.termCount * 4, true) !== this.bytes.length) throw corruptKeywordData("posting table does not match the postings");
    const offsets = new Uint32Array(this.termCount + 1);
    const docs = new Uint32Array(this.total);
    const tfs = new Uint8Array(this.total);
    // One loop over the bytes, no closure per term (at 100k files count() and forEach() took
    // ~280 ms here, this loop ~240). A reader of its own: a search between two steps moves the
    // shared one.
    const r = new ByteReader(this.bytes);
    let at = 0;
    try {
      yield* inBlocks(this.termCount, TERMS_PER_STEP, (from, to) => {
        let a = at;
        for (let t = from; t < to; t++) {
          offsets[t] = a;
          const [start, end] = this.range(t);
          r.pos = start;
          const n = r.varint();
          if (a + n > this.total) throw corruptKeywordData("posting lists overrun");
          let doc = 0;
          for (let k = 0; k < n; k++) {
            doc += r.varint();
            if (r.pos >= end || doc >= this.docCount) throw corruptKeywordData("posting refers to a missing document");
            docs[a] = doc;
            tfs[a++] = r.u8();
          }
          if (r.pos !== end) throw corruptKeywordData("posting list length mismatch");
        }
        at = a;
      });
    } catch (err) {
      // the reader's own errors (a varint running off the end) are damage too
      throw err instanceof RangeError ? corruptKeywordData(err.message) : err;
    }
    offsets[this.termCount] = at;
    if (at !== this.total) throw corruptKeywordData("posting count mismatch");
    return new CsrPostings(this.termCount, offsets, docs, tfs);
  }
}

/** The stored form of the postings of `terms` (in that order): the bytes EncodedPostings reads and its start table. In steps. */
export function* encodePostingsSteps(base: BasePostings, terms: number[]): Steps<{ bytes: Uint8Array; startTable: Uint8Array }> {
  const w = new ByteWriter(Math.max(1 << 16, base.docs.length * 3));
  const startTable = new Uint8Array((terms.length + 1) * 4);
  const starts = new DataView(startTable.buffer);
  yield* inBlocks(terms.length, TERMS_PER_STEP, (from, to) => {
    for (let i = from; i < to; i++) {
      const t = terms[i];
      starts.setUint32(i * 4, w.length, true);
      const start = base.offsets[t];
      const end = base.offsets[t + 1];
      w.varint(end - start);
      w.gapPairs(base.docs, base.tfs, start, end);
    }
  });
  starts.setUint32(terms.length * 4, w.length, true);
  return { bytes: w.finish(), startTable };
}
