// The keyword index on disk: a compact binary form, read back with every reference checked.
// Portable. See README.md in this folder for the layout.
import { ByteReader, ByteWriter, type ByteSink } from "./bytes.js";
import { PackedStrings, sparseStarts } from "./packed-strings.js";
import { EncodedPostings, encodePostingsSteps, type BasePostings, type EnsureBytes } from "./postings.js";
import { rowBytes } from "./vector-codes.js";
import { allHexIds, hexIdBytes, HexIds, type IdTable } from "./hex-ids.js";
import { readColumn, writeColumn, type DocColumn } from "./doc-columns.js";
import type { Steps } from "../yield.js";

const MAGIC = [0x4f, 0x43, 0x52, 0x4b]; // "OCRK"
/**
 * Bumped whenever the file layout OR the terms it holds change (tokenizer, normaliseTerm), so
 * that an older file is refused and rebuilt rather than silently matching nothing.
 * 2: terms stored in string order. 3-4: -ing/-ed folding in normaliseTerm. 5: the documents'
 * vectors as int8 codes. 6: postings as (gap, tf) pairs behind a table of where each term's
 * start, so that a loaded index reads only the terms a query has; paths, languages and kinds
 * in string order (binary-searched where loaded). 7: the vectors as 4-bit codes (vector-codes.ts);
 * document ids as 16 bytes each where all are 32 hex digits (hex-ids.ts). 8: the postings and
 * their start table between everything else and the vector codes, with a footer saying where
 * they lie (a loader reads the rest and brings in postings as searches ask; rows added to a
 * loaded index still go after the codes); string tables with the start of every 64th string
 * (packed-strings.ts), so a load finds no string boundary itself. 9: the documents' lengths,
 * paths, languages and kinds as four fixed-width columns (doc-columns.ts) instead of four
 * varints per document, so a load views them where they lie.
 */
const FORMAT_VERSION = 9;
/**
 * Older formats still read, so an upgrade needs no re-index; the next snapshot is the current
 * format. 6 differs from 7 only in its 8-bit vector codes (turned into 4-bit ones as the file
 * loads) and its ids as text; both are read whole. 8 differs from 9 only in its document fields.
 */
const READABLE_VERSIONS = [6, 7, 8, FORMAT_VERSION];

/**
 * A format 8 or 9 file ends with where its postings start and where its vector codes start (each
 * two u32 LE: low, high) and the magic again.
 */
export const FOOTER_BYTES = 16 + MAGIC.length;

/** Bytes at the start of a file that say whether it is a keyword index of this format. */
export const FORMAT_HEAD_BYTES = MAGIC.length + 1;

/** Whether a file starting with `head` is a keyword index this version reads (not whether it all parses). */
export function isReadableFormat(head: Uint8Array): boolean {
  return head.length >= FORMAT_HEAD_BYTES && MAGIC.every((b, i) => head[i] === b) && READABLE_VERSIONS.includes(head[MAGIC.length]);
}

/**
 * The bytes [start, end) of a file that hold its postings (and their start table), which a
 * loader may leave to be read as searches ask for them; from the file's first FORMAT_HEAD_BYTES
 * and last FOOTER_BYTES. Null for a file to read whole (older formats; anything else is left
 * for readParts to name).
 */
export function postingsPart(head: Uint8Array, footer: Uint8Array, size: number): { start: number; end: number } | null {
  if (!isReadableFormat(head) || head[MAGIC.length] < 8 || footer.length !== FOOTER_BYTES) return null;
  const view = new DataView(footer.buffer, footer.byteOffset, footer.length);
  const start = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  const end = view.getUint32(8, true) + view.getUint32(12, true) * 2 ** 32;
  return FORMAT_HEAD_BYTES <= start && start <= end && end <= size - FOOTER_BYTES ? { start, end } : null;
}

/** Per document: its length and its path, language and kind as numbers in those tables. */
interface DocumentFields {
  docLens: DocColumn;
  docPath: DocColumn;
  docLang: DocColumn;
  docKind: DocColumn;
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
 * terms); offsets are by term id. In steps: a pause between the tables, and every few thousand
 * terms' postings.
 */
export function* writePartsSteps(parts: IndexParts, liveTerms: number[], sink: ByteSink): Steps<void> {
  const w = new ByteWriter(1 << 20, sink);
  for (const b of MAGIC) w.u8(b);
  w.u8(FORMAT_VERSION);
  const docCount = parts.docIds.length;
  w.varint(docCount);
  function* strings(values: string[]): Steps<void> {
    const block = yield* joinedUtf8(values);
    w.varint(values.length);
    w.block(sparseStarts(block, values.length));
    w.block(block);
  }
  // Metadata tables in string order (a loaded index binary-searches them), renumbered to match.
  const paths = inStringOrder(parts.paths);
  const languages = inStringOrder(parts.languages);
  const kinds = inStringOrder(parts.kinds);
  yield* strings(paths.values);
  yield* strings(languages.values);
  yield* strings(kinds.values);
  yield;
  // Document ids: 1 and their bytes where all are hex (the indexer's), else 0 and their text.
  if (allHexIds(parts.docIds)) {
    w.u8(1);
    w.varint(docCount);
    w.block(hexIdBytes(parts.docIds));
  } else {
    w.u8(0);
    yield* strings(parts.docIds);
  }
  yield;
  writeColumn(w, docCount, (d) => parts.docLens[d]);
  writeColumn(w, docCount, (d) => paths.numberOf[parts.docPath[d]]);
  writeColumn(w, docCount, (d) => languages.numberOf[parts.docLang[d]]);
  writeColumn(w, docCount, (d) => kinds.numberOf[parts.docKind[d]]);
  yield;
  yield* strings(liveTerms.map((t) => parts.terms[t]));
  yield;
  let total = 0;
  for (const t of liveTerms) total += parts.postings.offsets[t + 1] - parts.postings.offsets[t];
  const postings = yield* encodePostingsSteps(parts.postings, liveTerms);
  w.varint(total);
  w.varint(postings.bytes.length);
  w.varint(parts.vectors.dimension);
  if (parts.vectors.dimension > 0) {
    if (parts.vectors.rows !== docCount) throw new Error("vector rows do not match the documents");
    w.block(parts.vectors.scales);
  }
  // The postings apart, where a loader can leave them until a search reads them; the codes end
  // the file (but for the footer), so rows added to a loaded index go in the room after them.
  const postingsAt = w.length;
  w.raw(postings.startTable);
  w.raw(postings.bytes);
  const codesAt = w.length;
  if (parts.vectors.dimension > 0) w.block(parts.vectors.codes);
  for (const at of [postingsAt, codesAt]) {
    w.u32(at % 2 ** 32);
    w.u32(Math.floor(at / 2 ** 32));
  }
  for (const b of MAGIC) w.u8(b); // trailer: catches truncated files
  w.finish();
}

/**
 * The parts of a binary form; throws naming the first inconsistency found. Postings are
 * checked as they are read (a damaged list throws then, with the same "corrupt" error). Of a
 * format 8 or 9 file, `ensure` brings in the postings' bytes as they are read: the rest, and the
 * footer, must be in `bytes` already.
 */
export function readParts(bytes: Uint8Array, ensure?: EnsureBytes): LoadedParts {
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) throw new Error("not a keyword index file");
  if (bytes.length < FORMAT_HEAD_BYTES) throw new Error("not a keyword index file");
  const version = bytes[MAGIC.length];
  if (!READABLE_VERSIONS.includes(version)) throw new Error(`format version ${version}, expected ${FORMAT_VERSION}`);
  for (let i = 0; i < MAGIC.length; i++) if (bytes[bytes.length - MAGIC.length + i] !== MAGIC[i]) throw new Error("bad trailer (truncated?)");
  if (version < 8) return readWholeParts(bytes, version);
  const part = postingsPart(bytes.subarray(0, FORMAT_HEAD_BYTES), bytes.subarray(bytes.length - FOOTER_BYTES), bytes.length);
  if (part === null) throw new Error("bad footer");
  const r = new ByteReader(bytes.subarray(0, part.start));
  r.pos = FORMAT_HEAD_BYTES;
  const docCount = r.varint();
  // Tables the file says are in string order are checked as lookups read them (packed-strings.ts).
  const strings = (inOrder: boolean): PackedStrings => {
    const count = r.varint();
    const sparse = r.block();
    return PackedStrings.fromSparse(r.block(), count, sparse, inOrder);
  };
  const paths = strings(true);
  const languages = strings(true);
  const kinds = strings(true);
  const docIds = readIds(r, version, () => strings(false));
  if (docIds.length !== docCount) throw new Error("document count mismatch");
  const fields = version >= 9 ? readDocumentColumns(r, docCount, paths, languages, kinds) : readDocumentFields(r, docCount, paths, languages, kinds);
  const terms = strings(true);
  const total = r.varint();
  const postingsLength = r.varint();
  const dimension = r.varint();
  const scales = dimension > 0 ? r.block() : new Uint8Array(0);
  if (!r.done) throw new Error("postings do not start where the footer says");
  if (part.start + (terms.length + 1) * 4 + postingsLength !== part.end) throw new Error("postings do not end where the footer says");
  const postings = EncodedPostings.inFile(bytes, part.start, postingsLength, terms.length, docCount, total, ensure ?? (() => undefined));
  const codes = new ByteReader(bytes.subarray(part.end, bytes.length - FOOTER_BYTES));
  const vectors = checkedVectors(dimension, docCount, scales, dimension > 0 ? codes.block() : new Uint8Array(0), 4);
  if (!codes.done) throw new Error("trailing bytes");
  return { docIds, ...fields, paths, languages, kinds, terms, postings, vectors };
}

/** Formats 6 and 7: postings in the middle, string tables without group starts. */
function readWholeParts(bytes: Uint8Array, version: number): LoadedParts {
  const r = new ByteReader(bytes);
  r.pos = FORMAT_HEAD_BYTES;
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
  const docIds = readIds(r, version, strings);
  if (docIds.length !== docCount) throw new Error("document count mismatch");
  const fields = readDocumentFields(r, docCount, paths, languages, kinds);
  const terms = sortedStrings("term");
  const total = r.varint();
  const startTable = r.block();
  const postings = EncodedPostings.from(r.block(), startTable, terms.length, docCount, total);
  const vectors = readVectors(r, docCount, version >= 7 ? 4 : 8);
  r.pos += MAGIC.length; // the trailer, checked by readParts
  if (!r.done) throw new Error("trailing bytes");
  return { docIds, ...fields, paths, languages, kinds, terms, postings, vectors };
}

function readIds(r: ByteReader, version: number, strings: () => PackedStrings): IdTable {
  const idForm = version >= 7 ? r.u8() : 0;
  if (idForm > 1) throw new Error(`unknown document id form ${idForm}`);
  if (idForm === 0) return strings();
  const count = r.varint();
  return HexIds.fromBlock(r.block(), count);
}

function readDocumentColumns(r: ByteReader, docCount: number, paths: PackedStrings, languages: PackedStrings, kinds: PackedStrings): Omit<DocumentFields, "vectors"> {
  return {
    docLens: readColumn(r, docCount),
    docPath: readColumn(r, docCount, paths.length),
    docLang: readColumn(r, docCount, languages.length),
    docKind: readColumn(r, docCount, kinds.length),
  };
}

/** Formats 6 to 8: the four numbers of each document as varints, document after document. */
function readDocumentFields(r: ByteReader, docCount: number, paths: PackedStrings, languages: PackedStrings, kinds: PackedStrings): Omit<DocumentFields, "vectors"> {
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
  return { docLens, docPath, docLang, docKind };
}

function readVectors(r: ByteReader, docCount: number, bits: 4 | 8): IndexParts["vectors"] {
  const dimension = r.varint();
  if (dimension === 0) return checkedVectors(0, docCount, new Uint8Array(0), new Uint8Array(0), bits);
  const scales = r.block();
  return checkedVectors(dimension, docCount, scales, r.block(), bits);
}

function checkedVectors(dimension: number, docCount: number, scales: Uint8Array, codes: Uint8Array, bits: 4 | 8): IndexParts["vectors"] {
  if (dimension === 0) return { dimension, rows: 0, scales, codes, bits };
  const codeBytes = bits === 4 ? rowBytes(dimension) : dimension;
  if (scales.length !== docCount * 4 || codes.length !== docCount * codeBytes) throw new Error("vector codes do not match the document count");
  return { dimension, rows: docCount, scales, codes, bits };
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

const utf8 = new TextEncoder();

/** Strings encoded between pauses by joinedUtf8(). */
const STRINGS_PER_STEP = 16_384;

/** The strings' UTF-8 joined by NULs, as `encode(values.join("\0"))` gives it, a slice of them at a time. */
function* joinedUtf8(values: readonly string[]): Steps<Uint8Array> {
  if (values.length <= STRINGS_PER_STEP) return utf8.encode(values.join("\0"));
  const pieces: Uint8Array[] = [];
  let length = 0;
  for (let from = 0; from < values.length; from += STRINGS_PER_STEP) {
    yield;
    const piece = utf8.encode(values.slice(from, from + STRINGS_PER_STEP).join("\0"));
    pieces.push(piece);
    length += piece.length;
  }
  const out = new Uint8Array(length + pieces.length - 1);
  let at = 0;
  pieces.forEach((piece, i) => {
    if (i > 0) out[at++] = 0; // the NUL between two slices
    out.set(piece, at);
    at += piece.length;
  });
  return out;
}
