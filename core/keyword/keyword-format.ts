// The keyword index on disk: a compact binary form, read back with every reference checked.
// Portable. See README.md in this folder for the layout.
import { ByteReader, ByteWriter } from "./bytes.js";

const MAGIC = [0x4f, 0x43, 0x52, 0x4b]; // "OCRK"
/**
 * Bumped whenever the file layout OR the terms it holds change (tokenizer, normaliseTerm), so
 * that an older file is refused and rebuilt rather than silently matching nothing.
 * 2: terms stored in string order. 3-4: -ing/-ed folding in normaliseTerm. 5: the documents'
 * vectors as int8 codes.
 */
const FORMAT_VERSION = 5;

/** Bytes at the start of a file that say whether it is a keyword index of this format. */
export const FORMAT_HEAD_BYTES = MAGIC.length + 1;

/** Whether a file starting with `head` is a keyword index this version reads (not whether it all parses). */
export function isCurrentFormat(head: Uint8Array): boolean {
  return head.length >= FORMAT_HEAD_BYTES && MAGIC.every((b, i) => head[i] === b) && head[MAGIC.length] === FORMAT_VERSION;
}

/** Everything a loaded index is built from: documents, metadata tables, terms and base postings (CSR). */
export interface IndexParts {
  docIds: string[];
  docLens: number[];
  docPath: number[];
  docLang: number[];
  docKind: number[];
  paths: string[];
  languages: string[];
  kinds: string[];
  terms: string[];
  offsets: Uint32Array;
  docs: Uint32Array;
  tfs: Uint8Array;
  /** Every document's vector (vector-codes.ts): dimension 0 when the index keeps none. */
  vectors: { dimension: number; rows: number; scales: Uint8Array; codes: Uint8Array };
}

/**
 * The binary form of `parts`. Only the term ids in `liveTerms` are written, in that order, which
 * must be string order (a loaded index binary-searches its terms); offsets are by term id.
 */
export function writeParts(parts: IndexParts, liveTerms: number[]): Uint8Array {
  const w = new ByteWriter(1 << 20);
  for (const b of MAGIC) w.u8(b);
  w.u8(FORMAT_VERSION);
  const enc = new TextEncoder();
  const docCount = parts.docIds.length;
  w.varint(docCount);
  const strings = (values: string[]) => {
    w.varint(values.length);
    w.block(enc.encode(values.join("\0")));
  };
  strings(parts.paths);
  strings(parts.languages);
  strings(parts.kinds);
  strings(parts.docIds);
  for (let d = 0; d < docCount; d++) {
    w.varint(parts.docLens[d]);
    w.varint(parts.docPath[d]);
    w.varint(parts.docLang[d]);
    w.varint(parts.docKind[d]);
  }
  strings(liveTerms.map((t) => parts.terms[t]));
  w.varint(parts.docs.length);
  for (const t of liveTerms) {
    const start = parts.offsets[t];
    const end = parts.offsets[t + 1];
    w.varint(end - start);
    w.varints(parts.docs, start, end, true);
    w.varints(parts.tfs, start, end, false);
  }
  w.varint(parts.vectors.dimension);
  if (parts.vectors.dimension > 0) {
    if (parts.vectors.rows !== docCount) throw new Error("vector rows do not match the documents");
    w.block(parts.vectors.scales);
    w.block(parts.vectors.codes);
  }
  for (const b of MAGIC) w.u8(b); // trailer: catches truncated files
  return w.finish();
}

/** The parts of a binary form; throws naming the first inconsistency found. */
export function readParts(bytes: Uint8Array): IndexParts {
  const r = new ByteReader(bytes);
  for (const b of MAGIC) if (r.u8() !== b) throw new Error("not a keyword index file");
  const version = r.u8();
  if (version !== FORMAT_VERSION) throw new Error(`format version ${version}, expected ${FORMAT_VERSION}`);
  const dec = new TextDecoder();
  const docCount = r.varint();
  const strings = (): string[] => {
    const expected = r.varint();
    const text = dec.decode(r.block());
    const out = expected === 0 ? [] : text.split("\0");
    if (out.length !== expected) throw new Error(`expected ${expected} strings, found ${out.length}`);
    return out;
  };
  const paths = strings();
  const languages = strings();
  const kinds = strings();
  const docIds = strings();
  if (docIds.length !== docCount) throw new Error("document count mismatch");
  const docLens = new Array<number>(docCount);
  const docPath = new Array<number>(docCount);
  const docLang = new Array<number>(docCount);
  const docKind = new Array<number>(docCount);
  for (let d = 0; d < docCount; d++) {
    docLens[d] = r.varint();
    docPath[d] = checkRef(r.varint(), paths.length);
    docLang[d] = checkRef(r.varint(), languages.length);
    docKind[d] = checkRef(r.varint(), kinds.length);
  }
  const terms = strings();
  const termCount = terms.length;
  // Lookups binary-search this table: an unsorted one would silently miss terms.
  for (let t = 1; t < termCount; t++) if (!(terms[t - 1] < terms[t])) throw new Error("term table out of order");
  const total = r.varint();
  const offsets = new Uint32Array(termCount + 1);
  const docs = new Uint32Array(total);
  const tfs = new Uint8Array(total);
  let pos = 0;
  for (let t = 0; t < termCount; t++) {
    const c = r.varint();
    if (pos + c > total) throw new Error("posting lists overrun");
    offsets[t] = pos;
    r.varints(docs, pos, c, true);
    r.varints(tfs, pos, c, false);
    if (c > 0 && docs[pos + c - 1] >= docCount) throw new Error("posting refers to a missing document");
    pos += c;
  }
  offsets[termCount] = pos;
  if (pos !== total) throw new Error("posting count mismatch");
  const dimension = r.varint();
  const vectors: IndexParts["vectors"] = { dimension, rows: dimension > 0 ? docCount : 0, scales: new Uint8Array(0), codes: new Uint8Array(0) };
  if (dimension > 0) {
    vectors.scales = r.block();
    vectors.codes = r.block();
    if (vectors.scales.length !== docCount * 4 || vectors.codes.length !== docCount * dimension) throw new Error("vector codes do not match the document count");
  }
  for (const b of MAGIC) if (r.u8() !== b) throw new Error("bad trailer (truncated?)");
  if (!r.done) throw new Error("trailing bytes");
  return { docIds, docLens, docPath, docLang, docKind, paths, languages, kinds, terms, offsets, docs, tfs, vectors };
}

function checkRef(value: number, length: number): number {
  if (value >= length) throw new Error("metadata reference out of range");
  return value;
}
