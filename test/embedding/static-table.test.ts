// The bundled model computed in TypeScript from the table inside model.onnx must give the
// vectors onnxruntime gives on the same graph (indexes built before stay valid), and the
// default provider must get there without loading onnxruntime at all.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as ort from "onnxruntime-node";
import { BUNDLED_MODEL_ID, DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { createEmbeddingProvider } from "../../core/embedding/index.js";
import { FINGERPRINT_FILE, fingerprintRecord, hashModelFiles, modelFingerprint } from "../../core/embedding/local.js";
import { readOnnxGraph } from "../../core/embedding/onnx-reader.js";
import { preprocessForEmbedding } from "../../core/embedding/preprocess.js";
import { embedTokenIds, modelFileBuffer, staticTableFromOnnx } from "../../core/embedding/static-table.js";
import { encodeWordPiece, wordPieceFromTokenizerJson } from "../../core/embedding/wordpiece.js";
import { modelsDir } from "../../core/paths.js";
import type { EmbeddingProvider } from "../../core/types.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";
import { fileIntoOnDemand } from "../../core/files/read-into.js";

const modelDir = join(modelsDir(), BUNDLED_MODEL_ID);
const onnxBytes = readFileSync(join(modelDir, "onnx", "model.onnx"));
const wordPiece = wordPieceFromTokenizerJson(JSON.parse(readFileSync(join(modelDir, "tokenizer.json"), "utf8")))!;
const MAX_LENGTH = 512;

/** Real code and prose from this repository, cut into chunk-sized pieces. */
function realTexts(): string[] {
  const files = [
    ...readdirSync(join(repoRoot, "core", "embedding")).map((f) => join(repoRoot, "core", "embedding", f)),
    join(repoRoot, "README.md"),
    join(repoRoot, "models", "README.md"),
    join(repoRoot, "models", "scripts", "train.py"),
    join(repoRoot, "esbuild.config.mjs"),
  ];
  const out: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (let i = 0; i < text.length && out.length < 400; i += 1200) out.push(text.slice(i, i + 1200));
  }
  return out;
}

const edgeTexts = [
  "",
  "   ",
  "{}();",
  "x",
  "getUserById",
  "Größe berechnen: Änderungen für Straße und Café",
  "ファイルを読み込んで解析する関数 読み込み",
  "Функция для чтения файла конфигурации",
  "def 计算总和(列表): return sum(列表)",
  "emoji 🚀 rocket 👩‍💻 and accents: naïve résumé façade",
  "const ΔT = t1 - t0; // αβγ",
  // far past the 512-token limit: truncated exactly as the graph's input was
  "export function parseConfigFile(path) { return JSON.parse(readFile(path, 'utf8')); }\n".repeat(200),
  "word ".repeat(5000),
];

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 && nb === 0 ? 1 : dot / Math.sqrt(na * nb);
};

/** The graph run by onnxruntime on one row of ids: what every index so far was built with. */
async function onnxVector(session: ort.InferenceSession, ids: number[]): Promise<Float32Array> {
  const dims = [1, ids.length];
  const feeds = {
    input_ids: new ort.Tensor("int64", BigInt64Array.from(ids, BigInt), dims),
    attention_mask: new ort.Tensor("int64", new BigInt64Array(ids.length).fill(1n), dims),
  };
  const v = (await session.run(feeds, ["sentence_embedding"])).sentence_embedding.data as Float32Array;
  // a text with no known token normalises to NaN there; the provider has always stored zeros
  return v.map((x) => (Number.isFinite(x) ? x : 0));
}

describe("the bundled model without an inference runtime", () => {
  let session: ort.InferenceSession;
  let provider: EmbeddingProvider;
  beforeAll(async () => {
    session = await ort.InferenceSession.create(join(modelDir, "onnx", "model.onnx"));
    provider = (await createEmbeddingProvider(DEFAULT_CONFIG, { root: repoRoot })).provider!;
  });
  afterAll(async () => {
    await session?.release();
    await provider?.close?.();
  });

  it("reads the int8 table and its per-row scales out of model.onnx without copying the table", () => {
    const graph = readOnnxGraph(onnxBytes);
    expect(graph.nodes.map((n) => n.opType)).toContain("LpNormalization");
    const table = staticTableFromOnnx(onnxBytes)!;
    expect(table).not.toBeNull();
    expect([table.rows, table.dim]).toEqual([65536, 256]);
    expect(table.weights.buffer).toBe(onnxBytes.buffer);
    expect(table.kernel).toBeNull(); // plain memory: the plain loop sums it
    // [PAD] (row 0) is zero, so padding positions add nothing
    expect(table.weights.subarray(0, table.dim).every((w) => w === 0)).toBe(true);
  });

  it("sums in WebAssembly a model file read into a kernel's memory, with the plain loop's vectors", () => {
    const inKernel = modelFileBuffer(onnxBytes.length);
    inKernel.set(onnxBytes);
    const fast = staticTableFromOnnx(inKernel)!;
    expect(fast.kernel).not.toBeNull();
    expect(fast.weights.buffer).toBe(inKernel.buffer);
    const plain = staticTableFromOnnx(onnxBytes)!;
    const rows = [...realTexts(), ...edgeTexts].map((t) => encodeWordPiece(preprocessForEmbedding(t), wordPiece, MAX_LENGTH));
    // Past the kernel's 8192 distinct ids per call: every id of the table, some of them twice.
    rows.push([...Array.from({ length: fast.rows }, (_, i) => i), ...Array.from({ length: 5000 }, (_, i) => i * 7)]);
    rows.push([], [0, 0, 0]);
    const a = embedTokenIds(fast, rows);
    const b = embedTokenIds(plain, rows);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    expect(worst).toBeLessThan(1e-5);
    expect(a.subarray(-2 * fast.dim).every((x) => x === 0)).toBe(true);
    // A bad id fails the batch and leaves nothing behind for the next one.
    expect(() => embedTokenIds(fast, [[1, 2, fast.rows]])).toThrow(/outside the embedding table/);
    const after = embedTokenIds(fast, [[1, 1, 1, 5]]);
    const expected = embedTokenIds(plain, [[1, 1, 1, 5]]);
    for (let k = 0; k < after.length; k++) expect(Math.abs(after[k] - expected[k])).toBeLessThan(1e-5);
  });

  it("gives onnxruntime's vectors (cosine >= 0.999) on real code, prose, other scripts, long and empty texts", async () => {
    const texts = [...realTexts(), ...edgeTexts];
    expect(texts.length).toBeGreaterThan(100);
    const ours = await provider.embed(texts, "document");
    let worst = 1;
    for (let i = 0; i < texts.length; i++) {
      const ids = encodeWordPiece(preprocessForEmbedding(texts[i]), wordPiece, MAX_LENGTH);
      const theirs = await onnxVector(session, ids);
      const c = cosine(ours[i], theirs);
      worst = Math.min(worst, c);
      if (c < 0.999) throw new Error(`text ${i} (${JSON.stringify(texts[i].slice(0, 60))}): cosine ${c}`);
    }
    expect(worst).toBeGreaterThanOrEqual(0.999);
    // the long texts really were cut at the model's limit
    expect(encodeWordPiece(preprocessForEmbedding(edgeTexts.at(-1)!), wordPiece, MAX_LENGTH)).toHaveLength(MAX_LENGTH);
  });

  it("reads a model file on demand: a query reads a few rows, every vector is the file read whole's", () => {
    const whole = staticTableFromOnnx(onnxBytes)!;
    // the kernel sums in another order than the plain loop: equal within float32 rounding
    const expectClose = (a: Float32Array, b: Float32Array) => {
      expect(a.length).toBe(b.length);
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
      expect(worst).toBeLessThan(1e-5);
    };
    for (const alloc of [modelFileBuffer, (size: number) => new Uint8Array(size)]) {
      const file = fileIntoOnDemand(join(modelDir, "onnx", "model.onnx"), alloc);
      const table = staticTableFromOnnx(file.bytes, file.ensure)!;
      expect([table.rows, table.dim]).toEqual([whole.rows, whole.dim]);
      expect(table.scales).toEqual(whole.scales);
      const queries = ["where are embeddings batched", "parse the configuration file", "getUserById"].map((t) =>
        encodeWordPiece(preprocessForEmbedding(t), wordPiece, MAX_LENGTH),
      );
      expectClose(embedTokenIds(table, queries), embedTokenIds(whole, queries));
      // most of the table is still unread (zero where nothing was read yet)
      expect(table.loadRows).not.toBeNull();
      const unreadRow = 60_000;
      expect(queries.flat()).not.toContain(unreadRow);
      expect(table.weights.subarray(unreadRow * table.dim, (unreadRow + 1) * table.dim).every((w) => w === 0)).toBe(true);
      // real texts use more and more rows until the rest is read at once
      const rows = realTexts().map((t) => encodeWordPiece(preprocessForEmbedding(t), wordPiece, MAX_LENGTH));
      rows.push(Array.from({ length: table.rows }, (_, i) => i));
      expectClose(embedTokenIds(table, rows), embedTokenIds(whole, rows));
      expect(table.loadRows).toBeNull();
      expect(Buffer.from(file.bytes).equals(onnxBytes)).toBe(true);
    }
  });

  it("sums a batch row by row as the graph does, zero rows staying zero", () => {
    const table = staticTableFromOnnx(onnxBytes)!;
    const out = embedTokenIds(table, [[wordPiece.clsId, wordPiece.sepId], [], [0, 0, 0]]);
    expect(out.length).toBe(3 * table.dim);
    expect(out.subarray(table.dim).every((x) => x === 0)).toBe(true);
    expect(() => embedTokenIds(table, [[table.rows]])).toThrow(/outside the embedding table/);
  });

  it("keeps the model's fingerprint, so existing indexes are not rebuilt", () => {
    // the fingerprint hashes the model's files, which this path reads but never changes
    expect(provider.fingerprint).toBe(hashModelFiles(modelDir));
    expect(provider.fingerprint).toBe(modelFingerprint(modelDir));
  });

  it("ships the fingerprint it records (regenerate: node models/scripts/fingerprint.mjs)", () => {
    expect(readFileSync(join(modelDir, FINGERPRINT_FILE), "utf8").trim()).toBe(fingerprintRecord(modelDir));
  });

  it("trusts a recorded fingerprint only while the files still match it", () => {
    const copy = mkdtempSync(join(tmpdir(), "rag-fingerprint-"));
    try {
      cpSync(modelDir, copy, { recursive: true });
      const [, digest] = readFileSync(join(copy, FINGERPRINT_FILE), "utf8").trim().split(" ");
      // the record is what is read: a made-up fingerprint under the right digest is believed
      writeFileSync(join(copy, FINGERPRINT_FILE), `0123456789ab ${digest}\n`);
      expect(modelFingerprint(copy)).toBe("0123456789ab");
      // weights changed in place (one byte in the middle of the table): hashed again
      const onnx = readFileSync(join(copy, "onnx", "model.onnx"));
      onnx[onnx.length >> 1] ^= 1;
      writeFileSync(join(copy, "onnx", "model.onnx"), onnx);
      expect(modelFingerprint(copy)).toBe(hashModelFiles(copy));
      expect(modelFingerprint(copy)).not.toBe(hashModelFiles(modelDir));
      // a record in another format is ignored, not trusted
      writeFileSync(join(copy, FINGERPRINT_FILE), "0123456789ab\n");
      expect(modelFingerprint(copy)).toBe(hashModelFiles(copy));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("recognises only the static table graph", () => {
    expect(() => staticTableFromOnnx(new TextEncoder().encode("not an onnx graph"))).toThrow(/not an ONNX model file/);
  });
});

describe("the default provider in a fresh process", () => {
  beforeAll(() => ensureBuilt());

  it("embeds with the bundled model without loading onnxruntime or transformers.js", () => {
    const script = `
      import { createEmbeddingProvider, DEFAULT_CONFIG } from ${JSON.stringify(join(repoRoot, "dist", "library.js"))};
      import { readFileSync } from "node:fs";
      const { provider } = await createEmbeddingProvider(DEFAULT_CONFIG, { root: process.cwd() });
      const [v] = await provider.embed(["read a json config file"], "query");
      const maps = readFileSync("/proc/self/maps", "utf8");
      console.log(JSON.stringify({ dim: v.length, onnxruntime: /libonnxruntime/.test(maps), sharp: /sharp/.test(maps) }));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot, encoding: "utf8" });
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual({ dim: 256, onnxruntime: false, sharp: false });
  });
});
