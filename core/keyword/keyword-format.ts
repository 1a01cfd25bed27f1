// The keyword index on disk: a compact binary form, read back with every reference checked.
// Portable. See README.md in this folder for the layout.
import { ByteReader, ByteWriter, type ByteSink } from "./bytes.js";
import { PackedStrings } from "./packed-strings.js";
import { EncodedPostings, encodePostings, type BasePostings } from "./postings.js";
import { rowBytes } from "./vector-codes.js";
import { allHexIds, hexIdBytes, HexIds, type IdTable } from "./hex-ids.js";

const MAGIC = [0x4f, 0x43, 0x52, 0x4b]; // "OCRK"
/**
 * Bumped whenever the file layout OR the terms it holds change (tokenizer, normaliseTerm), so
 * that an older file is refused and rebuilt rather than silently matching nothing.
 * 2: terms stored in string order. 3-4: -ing/-ed folding in normaliseTerm. 5: the documents'
 * vectors as int8 codes. 6: postings as (gap, tf) pairs behind a table of where each term's
 * start, so that a loaded index reads only the terms a query has; paths, languages and kinds
 * in string order (binary-searched where loaded). 7: the vectors as 4-bit codes (vector-codes.ts);
 * document ids as 16 bytes each where all are 32 hex digits (hex-ids.ts).
 */
const FORMAT_VERSION = 7;
/**
 * Older formats still read: 6 differs only in its 8-bit vector codes (turned into 4-bit ones as
 * the file loads) and its ids as text, so an upgrade needs no re-index; the next snapshot is 7.
 */
const READABLE_VERSIONS = [6, FORMAT_VERSION];

/** Bytes at the start of a file that say whether it is a keyword index of this format. */
export const FORMAT_HEAD_BYTES = MAGIC.length + 1;

/** Whether a file starting with `head` is a keyword index this version reads (not whether it all parses). */
export function isReadableFormat(head: Uint8Array): boolean {
  return head.length >= FORMAT_HEAD_BYTES && MAGIC.every((b, i) => head[i] === b) && READABLE_VERSIONS.includes(head[MAGIC.length]);
}

/** Per document: its length and its path, language and kind as numbers in those tables. */
interface DocumentFields {
  docLens: number[];
  docPath: number[];
  docLang: number[];
  docKind: number[];
  /**
   * Every document's vector (vector-codes.ts): dimension 0 when the index keeps none. `bits`: 4,
   * or 8 for the one-byte codes of a format 6 file.
   */
  vectors: { dimension: number; rows: number; scales: Uint8Array; codes: Uint8Array; bits?: 4 | 8 };
}

/** What an index writes: its tables as it numbers them, terms by id, base postings (CSR) by term id. */
export interface IndexParts extends DocumentFields {
  docIds: string[];
  paths: string[];
  languages: string[];
  kinds: string[];
  terms: string[];
  postings: BasePostings;
}

/**
 * What a load gives: every table still in the file's bytes (paths, languages, kinds and terms
 * in string order), and the postings read a term at a time.
 */
export interface LoadedParts extends DocumentFields {
  docIds: IdTable;
  paths: PackedStrings;
  languages: PackedStrings;
  kinds: PackedStrings;
  terms: PackedStrings;
  postings: EncodedPostings;
}

/**
 * The binary form of `parts`, handed to `sink` in order. Only the term ids in `liveTerms` are
 * written, in that order, which must be string order (a loaded index binary-searches its
 * terms); offsets are by term id.
 */
export function writeParts(parts: IndexParts, liveTerms: number[], sink: ByteSink): void {
  const w = new ByteWriter(1 << 20, sink);
  for (const b of MAGIC) w.u8(b);
  w.u8(FORMAT_VERSION);
  const enc = new TextEncoder();
  const docCount = parts.docIds.length;
  w.varint(docCount);
  const strings = (values: string[]) => {
    w.varint(values.length);
    w.block(enc.encode(values.join("\0")));
  };
  // Metadata tables in string order (a loaded index binary-searches them), renumbered to match.
  const paths = inStringOrder(parts.paths);
  const languages = inStringOrder(parts.languages);
  const kinds = inStringOrder(parts.kinds);
  strings(paths.values);
  strings(languages.values);
  strings(kinds.values);
  // Document ids: 1 and their bytes where all are hex (the indexer's), else 0 and their text.
  if (allHexIds(parts.docIds)) {
    w.u8(1);
    w.varint(docCount);
    w.block(hexIdBytes(parts.docIds));
  } else {
    w.u8(0);
    strings(parts.docIds);
  }
  for (let d = 0; d < docCount; d++) {
    w.varint(parts.docLens[d]);
    w.varint(paths.numberOf[parts.docPath[d]]);
    w.varint(languages.numberOf[parts.docLang[d]]);
    w.varint(kinds.numberOf[parts.docKind[d]]);
  }
  strings(liveTerms.map((t) => parts.terms[t]));
  let total = 0;
  for (const t of liveTerms) total += parts.postings.offsets[t + 1] - parts.postings.offsets[t];
  w.varint(total);
  const postings = encodePostings(parts.postings, liveTerms);
  w.block(postings.startTable);
  w.block(postings.bytes);
  w.varint(parts.vectors.dimension);
  if (parts.vectors.dimension > 0) {
    if (parts.vectors.rows !== docCount) throw new Error("vector rows do not match the documents");
    w.block(parts.vectors.scales);
    w.block(parts.vectors.codes);
  }
  for (const b of MAGIC) w.u8(b); // trailer: catches truncated files
  w.finish();
}

/**
 * The parts of a binary form; throws naming the first inconsistency found. Postings are
 * checked as they are read (a damaged list throws then, with the same "corrupt" error).
 */
export function readParts(bytes: Uint8Array): LoadedParts {
  const r = new ByteReader(bytes);
  for (const b of MAGIC) if (r.u8() !== b) throw new Error("not a keyword index file");
  const version = r.u8();
  if (!READABLE_VERSIONS.includes(version)) throw new Error(`format version ${version}, expected ${FORMAT_VERSION}`);
  const docCount = r.varint();
  const strings = (): PackedStrings => {
    const expected = r.varint();
    return PackedStrings.fromBlock(r.block(), expected);
  };
  const sortedStrings = (what: string): PackedStrings => {
    const table = strings();
    // Lookups binary-search these tables: an unsorted one would silently miss values.
    if (!table.isStrictlySorted()) throw new Error(`${what} table out of order`);
    return table;
  };
  const paths = sortedStrings("path");
  const languages = sortedStrings("language");
  const kinds = sortedStrings("kind");
  const idForm = version >= 7 ? r.u8() : 0;
  if (idForm > 1) throw new Error(`unknown document id form ${idForm}`);
  let docIds: IdTable;
  if (idForm === 1) {
    const count = r.varint();
    docIds = HexIds.fromBlock(r.block(), count);
  } else docIds = strings();
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
  const terms = sortedStrings("term");
  const total = r.varint();
  const startTable = r.block();
  const postings = EncodedPostings.from(r.block(), startTable, terms.length, docCount, total);
  const dimension = r.varint();
  const bits = version >= 7 ? 4 : 8;
  const vectors: IndexParts["vectors"] = { dimension, rows: dimension > 0 ? docCount : 0, scales: new Uint8Array(0), codes: new Uint8Array(0), bits };
  if (dimension > 0) {
    vectors.scales = r.block();
    vectors.codes = r.block();
    const codeBytes = bits === 4 ? rowBytes(dimension) : dimension;
    if (vectors.scales.length !== docCount * 4 || vectors.codes.length !== docCount * codeBytes) throw new Error("vector codes do not match the document count");
  }
  for (const b of MAGIC) if (r.u8() !== b) throw new Error("bad trailer (truncated?)");
  if (!r.done) throw new Error("trailing bytes");
  return { docIds, docLens, docPath, docLang, docKind, paths, languages, kinds, terms, postings, vectors };
}

function checkRef(value: number, length: number): number {
  if (value >= length) throw new Error("metadata reference out of range");
  return value;
}

/** `values` in string order, and each old number's new one. */
function inStringOrder(values: string[]): { values: string[]; numberOf: Uint32Array } {
  const order = values.map((_, i) => i).sort((a, b) => (values[a] < values[b] ? -1 : values[a] > values[b] ? 1 : 0));
  const numberOf = new Uint32Array(values.length);
  order.forEach((old, i) => (numberOf[old] = i));
  return { values: order.map((i) => values[i]), numberOf };
}
