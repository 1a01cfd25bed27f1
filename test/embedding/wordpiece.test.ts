// The fast WordPiece encoder must give exactly the ids transformers.js gives for the same
// preprocessed text with the bundled tokenizer.json, or training and search would disagree.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AutoTokenizer, env } from "@huggingface/transformers";
import { BUNDLED_MODEL_ID } from "../../core/config/defaults.js";
import { preprocessForEmbedding } from "../../core/embedding/preprocess.js";
import { encodeWordPiece, WORDPIECE_FILE, wordPieceFileBytes, wordPieceFromFileBytes, wordPieceFromTokenizerJson, type WordPieceVocab } from "../../core/embedding/wordpiece.js";
import { modelsDir } from "../../core/paths.js";
import { textIdsEncoder } from "../../core/embedding/text-ids.js";

const SAMPLES = [
  "export async function getUserById(id: string): Promise<User | null> { return db.users.find(id); }",
  "def parse_http_response(raw_bytes, encoding='utf-8'):\n    return HTTPResponse.from_bytes(raw_bytes)",
  "func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }",
  "Where are embeddings batched and normalised before they are written to the vector store?",
  "zzqxwv qqqqjjjj xylophonistically antidisestablishmentarianism 1234567890 0x7fffffff",
  "impl<T: Display> fmt::Debug for Wrapper<T> { fn fmt(&self, f: &mut Formatter) -> Result }",
  "",
  Array.from({ length: 700 }, (_, i) => `token${i} someIdentifier${i % 7}`).join(" "),
];

describe("fast WordPiece encoder", () => {
  let wp: WordPieceVocab;
  let tokenizer: Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>;

  beforeAll(async () => {
    const dir = join(modelsDir(), BUNDLED_MODEL_ID);
    wp = wordPieceFromTokenizerJson(JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")))!;
    env.allowRemoteModels = false;
    env.localModelPath = modelsDir() + "/";
    tokenizer = await AutoTokenizer.from_pretrained(BUNDLED_MODEL_ID);
  });

  it("reads the bundled tokenizer.json", () => {
    expect(wp).not.toBeNull();
    expect(wp.vocab.size).toBeGreaterThan(1000);
  });

  it("matches transformers.js id for id, including unknown words and truncation", () => {
    for (const sample of SAMPLES) {
      const text = preprocessForEmbedding(sample, 2000);
      const expected = Array.from(tokenizer(text, { truncation: true, max_length: 512 }).input_ids.data as ArrayLike<bigint>, Number);
      expect(encodeWordPiece(text, wp, 512)).toEqual(expected);
    }
  });

  it("matches transformers.js on text with accents and other scripts", () => {
    const mixed = [
      "// Café: naïve résumé über die Straße — getUserName()",
      "function получитьПользователя(id) { return 日本語のテキスト + αβγ; }",
      "İstanbul ǅemal ﬁle ٣٤ Ωmega_ñandú",
      Array.from({ length: 300 }, (_, i) => `élan${i} plain${i}`).join(" "),
    ];
    for (const sample of [...SAMPLES, ...mixed]) {
      const text = preprocessForEmbedding(sample, 2000);
      const expected = Array.from(tokenizer(text, { truncation: true, max_length: 512 }).input_ids.data as ArrayLike<bigint>, Number);
      expect(encodeWordPiece(text, wp, 512)).toEqual(expected);
      // a second encoding (words now remembered) gives the same ids
      expect(encodeWordPiece(text, wp, 512)).toEqual(expected);
    }
  });

  it("encodes words of every script as transformers.js does (BERT normaliser by hand)", () => {
    // Runs of characters from many blocks, alone and glued to ASCII: accents, case, marks that
    // NFD splits off, CJK ideographs (set apart), characters past U+FFFF, other digits.
    const ranges: Array<[number, number]> = [
      [0xc0, 0xff], [0x100, 0x17f], [0x180, 0x24f], [0x370, 0x3ff], [0x400, 0x4ff], [0x531, 0x587], [0x5d0, 0x5ea], [0x620, 0x669],
      [0x900, 0x97f], [0xe01, 0xe5b], [0x10a0, 0x10ff], [0x1e00, 0x1eff], [0x3041, 0x30ff], [0x3400, 0x3420], [0x4e00, 0x4e60],
      [0xac00, 0xac60], [0xf900, 0xf920], [0xff10, 0xff5a], [0x1d400, 0x1d430], [0x20000, 0x20020], [0x1f600, 0x1f610],
    ];
    const samples: string[] = [];
    for (const [from, to] of ranges) {
      const chars = Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
      for (let i = 0; i < chars.length; i += 5) samples.push(chars.slice(i, i + 5).join(""), `x${chars[i]}y`, `get${chars.slice(i, i + 3).join("")}Name`);
    }
    samples.push("Größe berechnen", "İstanbul ǅemal ﬁle", "naïve_café42", "ÀÉÎÕÜ", "日本語のテキスト", "Ωmega ñandú", "a".repeat(120) + "é");
    let checked = 0;
    for (const sample of samples) {
      const text = preprocessForEmbedding(sample, 2000);
      const expected = Array.from(tokenizer(text, { truncation: true, max_length: 512 }).input_ids.data as ArrayLike<bigint>, Number);
      expect(encodeWordPiece(text, wp, 512), JSON.stringify(sample)).toEqual(expected);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("refuses a tokenizer that is not BERT WordPiece", () => {
    expect(wordPieceFromTokenizerJson({ model: { type: "BPE", vocab: {} } })).toBeNull();
  });
});

describe("text to ids in one pass (the bundled model's indexing path)", () => {
  const dir = join(modelsDir(), BUNDLED_MODEL_ID);
  const wp = () => wordPieceFromFileBytes(readFileSync(join(dir, WORDPIECE_FILE)))!;
  const texts = [
    ...SAMPLES,
    "// Café: naïve résumé über die Straße — getUserName() İstanbul ǅemal 日本語のテキスト",
    // past the 512-word budget with short words, and past the id budget with unknown long ones
    Array.from({ length: 600 }, (_, i) => `a${i % 10}`).join(" "),
    Array.from({ length: 400 }, (_, i) => `zqxjkvbw${i}Plorftanglewurst`).join(" "),
    "x_y$z __init__ $ _ 9 HTTPServerError getHTTPResponseCode",
  ];

  it("gives exactly the ids of preprocessing and then encoding, at any length budget, remembered or not", () => {
    const vocab = wp();
    for (const maxLength of [512, 64, 3]) {
      const encode = textIdsEncoder(vocab, maxLength);
      for (const text of texts) {
        const expected = encodeWordPiece(preprocessForEmbedding(text), vocab, maxLength);
        expect(encode(text), JSON.stringify(text.slice(0, 40))).toEqual(expected);
        expect(encode(text)).toEqual(expected);
      }
    }
  });

  it("stops at the word budget where preprocessing does", () => {
    const vocab = wp();
    const text = Array.from({ length: 50 }, (_, i) => `getUser${i}`).join(" ");
    expect(textIdsEncoder(vocab, 512, 7)(text)).toEqual(encodeWordPiece(preprocessForEmbedding(text, 7), vocab, 512));
  });
});

describe("the compact vocabulary file (wordpiece.bin)", () => {
  const dir = join(modelsDir(), BUNDLED_MODEL_ID);
  const json = () => JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
  const shipped = () => new Uint8Array(readFileSync(join(dir, WORDPIECE_FILE)));
  const samples = [...SAMPLES, "Übergrößenträger naïve café 東京タワー"].map((s) => preprocessForEmbedding(s));

  /** The file's bytes with its first line's JSON changed by `edit`, the rest as it was. */
  function withHeader(bytes: Uint8Array, edit: (header: Record<string, unknown>) => void): Uint8Array {
    const end = bytes.indexOf(10);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end)));
    edit(header);
    const line = new TextEncoder().encode(JSON.stringify(header));
    // keep the line's length so the table stays where the header says it is
    expect(line.length).toBeLessThanOrEqual(end);
    const out = bytes.slice();
    out.fill(32, 0, end);
    out.set(line);
    return out;
  }

  function expectSameIds(vocab: WordPieceVocab | null, reference: WordPieceVocab): void {
    expect(vocab).not.toBeNull();
    expect(vocab!.vocab.size).toBe(reference.vocab.size);
    expect(vocab!.longestPiece).toBe(reference.longestPiece);
    for (const text of samples) expect(encodeWordPiece(text, vocab!, 512)).toEqual(encodeWordPiece(text, reference, 512));
  }

  it("ships exactly what tokenizer.json says (regenerate: node models/scripts/wordpiece.mjs)", () => {
    expect(Buffer.from(shipped()).equals(Buffer.from(wordPieceFileBytes(json())!))).toBe(true);
  });

  it("encodes every sample to the same ids as tokenizer.json", () => {
    expectSameIds(wordPieceFromFileBytes(shipped()), wordPieceFromTokenizerJson(json())!);
  });

  it("reads bytes that do not start on a 4-byte boundary (copied, not viewed)", () => {
    const bytes = shipped();
    const unaligned = new Uint8Array(bytes.length + 1).subarray(1);
    unaligned.set(bytes);
    expectSameIds(wordPieceFromFileBytes(unaligned), wordPieceFromTokenizerJson(json())!);
  });

  it("rebuilds the table from the tokens when it was placed by another hash", () => {
    let tokens = 0;
    let slots = 0;
    const other = withHeader(shipped(), (h) => {
      h.hash = "another-hash";
      tokens = h.tokens as number;
      slots = h.slots as number;
    });
    // slots placed by another hash would not be where this one looks: here, none at all
    const slotsAt = ((other.indexOf(10) + 1 + 3) & ~3) + 4 * (tokens + 1);
    other.fill(0, slotsAt, slotsAt + 4 * slots);
    expectSameIds(wordPieceFromFileBytes(other), wordPieceFromTokenizerJson(json())!);
  });

  it("refuses a file of another format, one cut short, and a tokenizer that is not BERT WordPiece", () => {
    expect(wordPieceFromFileBytes(withHeader(shipped(), (h) => (h.format = "something-else")))).toBeNull();
    expect(wordPieceFromFileBytes(new TextEncoder().encode("not json\n"))).toBeNull();
    expect(wordPieceFromFileBytes(shipped().subarray(0, 5000))).toBeNull();
    expect(wordPieceFileBytes({ ...json(), model: { type: "BPE", vocab: {} } })).toBeNull();
  });
});
