// A fast WordPiece encoder for text that preprocessForEmbedding has already normalised
// (lower-case words separated by single spaces). On words of a-z and 0-9 the BERT normaliser
// and pre-tokenizer of a tokenizer.json change nothing, so a greedy longest-match over the
// vocabulary gives exactly the ids transformers.js would; other words get the normaliser's
// steps first. Several times faster than transformers.js, and the tests hold the two to the
// same output. Portable: no Node built-ins.

import { boundedMemo } from "../bounded-memo.js";
import { HASH_VERSION, VocabTable, type TokenLookup } from "./vocab-table.js";
import { unsignedLE } from "../little-endian.js";

export interface WordPieceVocab {
  vocab: TokenLookup;
  unkId: number;
  clsId: number;
  sepId: number;
  padId: number;
  prefix: string;
  maxInputCharsPerWord: number;
  /** UTF-16 length of the longest entry: no piece of a word is longer. */
  longestPiece: number;
  /** Ids of a word that is not a whole vocabulary entry (or needs normalising), remembered across texts. */
  piecesOf: (word: string) => readonly number[];
}

/** The settings of a WordPiece vocabulary besides its tokens. */
interface WordPieceSettings {
  unkToken: string;
  prefix: string;
  maxInputCharsPerWord: number;
}

/** Reads what the encoder needs from a parsed tokenizer.json; null when it is not plain BERT WordPiece. */
export function wordPieceFromTokenizerJson(json: unknown): WordPieceVocab | null {
  const plain = plainWordPiece(json);
  if (!plain) return null;
  // Object.keys and a loop: Object.entries took 126 ms for the bundled 65k-entry vocabulary, this 35.
  const vocab = new Map<string, number>();
  for (const token of Object.keys(plain.vocab)) vocab.set(token, plain.vocab[token]);
  return wordPieceOf(vocab, plain.settings, longestEntry(vocab));
}

/**
 * The same vocabulary as one binary file that loads in a few milliseconds, its lookup table
 * stored built (parsing the 1.1 MB tokenizer.json of the bundled model took ~110 ms and its
 * vocabulary map ~50 more; building the table from a token list ~35 ms of a fresh process):
 *
 *   a line of JSON: format, settings, tokens, slots, longest, hash (VocabTable's HASH_VERSION)
 *   zero bytes up to a multiple of 4
 *   starts: (tokens + 1) × uint32 LE, where each token starts in the text (UTF-16 units)
 *   slots: slots × int32 LE, the table's open-addressing slots
 *   the text: UTF-8, the tokens in id order, each followed by "\n"
 *
 * Null when the tokenizer is not plain BERT WordPiece, or a token holds a line break.
 */
export function wordPieceFileBytes(json: unknown): Uint8Array | null {
  const plain = plainWordPiece(json);
  if (!plain) return null;
  const tokens: string[] = [];
  for (const token of Object.keys(plain.vocab)) tokens[plain.vocab[token]] = token;
  if (tokens.length !== Object.keys(plain.vocab).length || tokens.some((t) => t === undefined || /[\r\n]/.test(t))) return null;
  const { text, starts, slots, longest } = VocabTable.fromTokens(tokens).parts;
  const header: FileHeader = { format: WORDPIECE_FILE_FORMAT, ...plain.settings, tokens: tokens.length, slots: slots.length, longest, hash: HASH_VERSION };
  const headerBytes = utf8.encode(JSON.stringify(header) + "\n");
  const tableAt = align4(headerBytes.length);
  const textBytes = utf8.encode(text);
  const out = new Uint8Array(tableAt + 4 * (starts.length + slots.length) + textBytes.length);
  out.set(headerBytes);
  const view = new DataView(out.buffer);
  let at = tableAt;
  for (const n of starts) (view.setUint32(at, n, true), (at += 4));
  for (const n of slots) (view.setInt32(at, n, true), (at += 4));
  out.set(textBytes, at);
  return out;
}

const WORDPIECE_FILE_FORMAT = "opencode-rag-wordpiece-2";
/** Where a model folder keeps that file, beside tokenizer.json. */
export const WORDPIECE_FILE = "wordpiece.bin";

interface FileHeader extends WordPieceSettings {
  format: string;
  tokens: number;
  slots: number;
  longest: number;
  hash: string;
}

const utf8 = new TextEncoder();
const align4 = (n: number): number => (n + 3) & ~3;

/** Reads a file written by wordPieceFileBytes; null when it is not one (or is cut short). */
export function wordPieceFromFileBytes(bytes: Uint8Array): WordPieceVocab | null {
  const firstBreak = bytes.indexOf(10);
  if (firstBreak < 0) return null;
  let header: FileHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, firstBreak)));
  } catch {
    return null;
  }
  if (header.format !== WORDPIECE_FILE_FORMAT || !Number.isInteger(header.tokens) || !Number.isInteger(header.slots)) return null;
  const tableAt = align4(firstBreak + 1);
  const textAt = tableAt + 4 * (header.tokens + 1 + header.slots);
  if (header.tokens < 0 || header.slots < 0 || textAt > bytes.length) return null;
  const text = new TextDecoder().decode(bytes.subarray(textAt));
  const starts = unsignedLE(bytes.subarray(tableAt), 4, header.tokens + 1);
  const slotBits = unsignedLE(bytes.subarray(tableAt + 4 * starts.length), 4, header.slots);
  const slots = new Int32Array(slotBits.buffer, slotBits.byteOffset, slotBits.length);
  const built = header.hash === HASH_VERSION ? VocabTable.fromParts({ text, starts, slots, longest: header.longest }) : null;
  // a table placed by another hash (or broken) is rebuilt from the text, which is still good
  const vocab = built ?? (text.endsWith("\n") ? VocabTable.fromLines(text) : null);
  return vocab ? wordPieceOf(vocab, header, vocab.longest) : null;
}

/** The vocabulary and settings of a tokenizer.json, or null unless it is BERT WordPiece wrapped in [CLS] … [SEP]. */
function plainWordPiece(json: unknown): { vocab: Record<string, number>; settings: WordPieceSettings } | null {
  const t = json as {
    model?: { type?: string; vocab?: Record<string, number>; unk_token?: string; continuing_subword_prefix?: string; max_input_chars_per_word?: number };
    normalizer?: { type?: string; lowercase?: boolean };
    pre_tokenizer?: { type?: string };
    post_processor?: { type?: string; single?: unknown[] };
  };
  const m = t.model;
  if (!m || m.type !== "WordPiece" || !m.vocab) return null;
  if (t.normalizer?.type !== "BertNormalizer" || t.pre_tokenizer?.type !== "BertPreTokenizer") return null;
  // the encoder below always wraps a text in [CLS] … [SEP]; refuse any other template
  const single = JSON.stringify(t.post_processor?.single ?? null);
  if (t.post_processor?.type !== "TemplateProcessing" || !single.includes("[CLS]") || !single.includes("[SEP]")) return null;
  return {
    vocab: m.vocab,
    settings: { unkToken: m.unk_token ?? "[UNK]", prefix: m.continuing_subword_prefix ?? "##", maxInputCharsPerWord: m.max_input_chars_per_word ?? 100 },
  };
}

function wordPieceOf(vocab: TokenLookup, settings: WordPieceSettings, longestPiece: number): WordPieceVocab | null {
  const unkId = vocab.get(settings.unkToken);
  const clsId = vocab.get("[CLS]");
  const sepId = vocab.get("[SEP]");
  const padId = vocab.get("[PAD]");
  if (unkId === undefined || clsId === undefined || sepId === undefined || padId === undefined) return null;
  const wp: WordPieceVocab = {
    vocab,
    unkId,
    clsId,
    sepId,
    padId,
    prefix: settings.prefix,
    maxInputCharsPerWord: settings.maxInputCharsPerWord,
    longestPiece,
    piecesOf: () => [],
  };
  wp.piecesOf = boundedMemo((word) => (isPlainWord(word) ? splitIntoPieces(word, wp) : encodeOtherWord(word, wp)), 20_000);
  return wp;
}

function longestEntry(vocab: Map<string, number>): number {
  let longest = 0;
  for (const token of vocab.keys()) if (token.length > longest) longest = token.length;
  return longest;
}

/** Appends the ids of one word (lower case, letters and digits) to `out`. */
export function encodeWord(word: string, wp: WordPieceVocab, out: number[]): void {
  const whole = wp.vocab.get(word);
  // a word with other letters than a-z is normalised first, even if the vocabulary holds it as is
  if (whole !== undefined && isPlainWord(word)) out.push(whole);
  else for (const id of wp.piecesOf(word)) out.push(id);
}

/** Greedy longest-match pieces of an a-z/0-9 word the vocabulary lacks whole. */
function splitIntoPieces(word: string, wp: WordPieceVocab): readonly number[] {
  return greedyPieces(word.length, (start, end) => word.slice(start, end), wp);
}

/**
 * BERT's WordPiece over `length` characters, `text(start, end)` giving characters start..end:
 * the longest vocabulary entry from each position (`##`-prefixed after the first); a word with
 * any unmatchable position, or too long, becomes one [UNK].
 */
function greedyPieces(length: number, text: (start: number, end: number) => string, wp: WordPieceVocab): readonly number[] {
  if (length > wp.maxInputCharsPerWord) return [wp.unkId];
  const pieces: number[] = [];
  let start = 0;
  while (start < length) {
    // no piece is longer than the vocabulary's longest entry: longer candidates cannot match
    let end = Math.min(length, start + wp.longestPiece);
    let found: number | undefined;
    while (start < end) {
      found = wp.vocab.get(start === 0 ? text(0, end) : wp.prefix + text(start, end));
      if (found !== undefined) break;
      end--;
    }
    if (found === undefined) return [wp.unkId];
    pieces.push(found);
    start = end;
  }
  return pieces;
}

/**
 * CJK ideographs, which the BERT normaliser sets apart as words of their own. Tested per
 * UTF-16 unit, as transformers.js does (so the ranges past U+FFFF never match there either).
 */
function isCjkUnit(c: number): boolean {
  return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff);
}

const NONSPACING_MARK = /\p{Mn}/gu;
const SPACES = /\s+/u;

/**
 * Ids of a word with letters outside a-z (accents, other scripts), as the BERT normaliser,
 * pre-tokenizer and WordPiece of a tokenizer.json give them: CJK ideographs become words of
 * their own, then lower case, then accents stripped (NFD without non-spacing marks), then
 * WordPiece by code points. `word` holds letters and digits only (preprocessForEmbedding's
 * output), so the pre-tokenizer's punctuation split never applies. The tests hold this to
 * transformers.js's tokenizer over many scripts.
 */
function encodeOtherWord(word: string, wp: WordPieceVocab): readonly number[] {
  let spaced = "";
  for (let i = 0; i < word.length; i++) {
    const unit = word[i];
    spaced += isCjkUnit(word.charCodeAt(i)) ? ` ${unit} ` : unit;
  }
  const normalised = spaced.toLowerCase().normalize("NFD").replace(NONSPACING_MARK, "");
  const out: number[] = [];
  for (const piece of normalised.split(SPACES)) {
    if (!piece) continue;
    const whole = wp.vocab.get(piece);
    if (whole !== undefined) out.push(whole);
    else for (const id of splitIntoPiecesByCodePoint(piece, wp)) out.push(id);
  }
  return out;
}

/** WordPiece over code points (a piece never splits a surrogate pair), as transformers.js does. */
function splitIntoPiecesByCodePoint(word: string, wp: WordPieceVocab): readonly number[] {
  const chars = [...word];
  return greedyPieces(chars.length, (start, end) => chars.slice(start, end).join(""), wp);
}

/** True for a word of a-z and 0-9 only, which the BERT normaliser leaves as it is. */
function isPlainWord(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return false;
  }
  return true;
}

/**
 * Ids of one preprocessed text: [CLS] pieces… [SEP], cut to maxLength ids. Like
 * transformers.js, the cut comes after the special tokens are added, so a truncated text
 * ends without [SEP]. Words with other characters than a-z and 0-9 (accents, other scripts)
 * go through encodeOtherWord: the BERT normaliser and pre-tokenizer act per character and
 * split at spaces, so a word encodes the same alone as inside its text.
 */
export function encodeWordPiece(text: string, wp: WordPieceVocab, maxLength: number): number[] {
  const ids: number[] = [wp.clsId];
  for (const word of text.split(" ")) {
    if (ids.length >= maxLength) break;
    if (!word) continue;
    encodeWord(word, wp, ids);
  }
  ids.push(wp.sepId);
  if (ids.length > maxLength) ids.length = maxLength;
  return ids;
}
