// Posting lists of the keyword index: the compact base (CSR arrays) and the merge that folds
// newly added postings into it. Portable.

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
export function mergePostings(base: BasePostings, delta: Map<number, number[]>, termCount: number, remap: Int32Array): BasePostings {
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
  return { termCount, offsets, docs, tfs };
}
