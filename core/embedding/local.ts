// The `local` embedding provider: the bundled static model computed in TypeScript from its
// table (no runtime), any other ONNX model run in-process by transformers.js on
// onnxruntime-node (an optional install). Node-only (reads model folders from disk). The model is, in order:
//   1. a folder under the package's models/ (the bundled model by default),
//   2. an absolute folder, or one relative to the workspace root,
//   3. a Hugging Face id: used from `embedding.cacheDir` when already there (offline), and
//      downloaded into it otherwise — the only case in which a network call is made.
// A missing model is not an error for the engine: it gets a one-line reason and runs
// keyword-only.
import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { RagConfig } from "../config/defaults.js";
import { BUNDLED_MODEL_ID } from "../config/defaults.js";
import type { Logger } from "../engine-types.js";
import { modelsDir } from "../paths.js";
import type { EmbeddingProvider, EmbedPurpose } from "../types.js";
import { IDENTIFIER_PREPROCESS, preprocessForEmbedding } from "./preprocess.js";
import { textIdsEncoder } from "./text-ids.js";
import { fileIntoOnDemand } from "../files/read-into.js";
import { embedTokenIds, modelFileBuffer, staticTableFromOnnx, type StaticTable } from "./static-table.js";
import { importTransformers, MissingTransformersError } from "./transformers-runtime.js";
import { WORDPIECE_FILE, wordPieceFromFileBytes, wordPieceFromTokenizerJson, type WordPieceVocab } from "./wordpiece.js";

/** Where a configured model lives, before anything is loaded. */
export type LocalModelSource =
  | { kind: "folder"; dir: string }
  | { kind: "hub"; id: string; cacheDir: string; cached: boolean }
  | { kind: "missing"; reason: string };

const HUB_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

function isModelFolder(dir: string): boolean {
  return existsSync(join(dir, "config.json")) && existsSync(join(dir, "tokenizer.json"));
}

/** Resolves `embedding.model` to a folder or a Hugging Face id; never touches the network. */
export function resolveLocalModel(model: string, root: string, cacheDir: string): LocalModelSource {
  const name = model.trim() || BUNDLED_MODEL_ID;
  const looksLikePath = isAbsolute(name) || name.startsWith(".") || name.includes("\\");
  if (!looksLikePath) {
    const bundled = join(modelsDir(), name);
    if (isModelFolder(bundled)) return { kind: "folder", dir: bundled };
  }
  const asPath = resolve(root, name);
  if ((looksLikePath || !HUB_ID.test(name)) && isModelFolder(asPath)) return { kind: "folder", dir: asPath };
  if (!looksLikePath && HUB_ID.test(name)) {
    if (isModelFolder(asPath)) return { kind: "folder", dir: asPath };
    const cache = resolve(root, cacheDir);
    return { kind: "hub", id: name, cacheDir: cache, cached: isModelFolder(join(cache, name)) };
  }
  if (name === BUNDLED_MODEL_ID) {
    return {
      kind: "missing",
      reason: `the bundled embedding model is missing (${join(modelsDir(), name)}): reinstall opencode-rag, or set embedding.model to a model folder or a Hugging Face id; searching keyword-only`,
    };
  }
  return {
    kind: "missing",
    reason: `embedding model "${name}" not found (looked in ${join(modelsDir(), name)} and ${asPath}): set embedding.model to a folder with config.json, tokenizer.json and onnx/model.onnx, or to a Hugging Face id; searching keyword-only`,
  };
}

/** The files whose bytes make a model's fingerprint. */
const FINGERPRINTED_FILES = ["config.json", "tokenizer.json", "onnx/model.onnx", "onnx/model_quantized.onnx"];

/** Where a shipped model records its fingerprint (models/scripts/fingerprint.mjs writes it). */
export const FINGERPRINT_FILE = "fingerprint.txt";

/**
 * What the model's files hold, as a short hash: an upgraded model under the same id (a new
 * package version) must invalidate indexes built with the old weights. A folder that records
 * it (the bundled model: fingerprint.txt) saves every index pass reading and hashing 19 MB
 * (~100 ms); the record counts only while a cheap digest of the same files (their sizes and
 * three 64 KB samples each) still matches, so weights changed in place are hashed again.
 */
export function modelFingerprint(dir: string): string {
  return recordedFingerprint(dir) ?? hashModelFiles(dir);
}

/** The fingerprint computed from the files themselves. */
export function hashModelFiles(dir: string): string {
  const hash = createHash("sha1");
  for (const rel of FINGERPRINTED_FILES) {
    const file = join(dir, rel);
    if (existsSync(file)) hash.update(rel).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 12);
}

/** The line fingerprint.txt holds: the fingerprint, then the files' sampled digest. */
export function fingerprintRecord(dir: string): string {
  return `${hashModelFiles(dir)} ${sampledDigest(dir)}`;
}

const SAMPLE_BYTES = 64 * 1024;

/** Sizes and the first, middle and last 64 KB of each fingerprinted file: ~1 ms. */
function sampledDigest(dir: string): string {
  const hash = createHash("sha1");
  const sample = Buffer.alloc(SAMPLE_BYTES);
  for (const rel of FINGERPRINTED_FILES) {
    const file = join(dir, rel);
    if (!existsSync(file)) continue;
    const fd = openSync(file, "r");
    try {
      const size = fstatSync(fd).size;
      hash.update(`${rel}:${size}`);
      for (const at of [0, Math.max(0, Math.floor(size / 2) - SAMPLE_BYTES / 2), Math.max(0, size - SAMPLE_BYTES)]) {
        hash.update(sample.subarray(0, readSync(fd, sample, 0, SAMPLE_BYTES, at)));
      }
    } finally {
      closeSync(fd);
    }
  }
  return hash.digest("hex");
}

function recordedFingerprint(dir: string): string | null {
  const file = join(dir, FINGERPRINT_FILE);
  if (!existsSync(file)) return null;
  try {
    const [fingerprint, digest] = readFileSync(file, "utf8").trim().split(" ");
    return /^[0-9a-f]{12}$/.test(fingerprint) && digest === sampledDigest(dir) ? fingerprint : null;
  } catch {
    return null;
  }
}

/**
 * The model's WordPiece vocabulary: from `wordpiece.bin` when the folder has one (one read, its
 * table used as stored, ~5 ms), else from tokenizer.json (a 1 MB JSON parse, ~150 ms for the
 * bundled model).
 */
function loadWordPiece(dir: string): WordPieceVocab | null {
  const compact = join(dir, WORDPIECE_FILE);
  if (existsSync(compact)) {
    const wp = wordPieceFromFileBytes(readFileSync(compact));
    if (wp) return wp;
  }
  return wordPieceFromTokenizerJson(readJson(join(dir, "tokenizer.json")));
}

/** Model-specific facts read from the folder's config.json. */
interface ModelFacts {
  dimension: number | null;
  preprocess: string | null;
}

function readFacts(dir: string): ModelFacts {
  try {
    const cfg = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
    const own = (cfg.opencode_rag ?? {}) as Record<string, unknown>;
    const dim = cfg.hidden_size ?? cfg.dim ?? cfg.d_model;
    return { dimension: typeof dim === "number" ? dim : null, preprocess: typeof own.preprocess === "string" ? own.preprocess : null };
  } catch {
    return { dimension: null, preprocess: null };
  }
}

/** What a loaded model can do: turn texts into pooled, normalised vectors. */
interface LoadedModel {
  /** Vectors of texts as written: a model trained on preprocessed words preprocesses them itself. */
  embed(texts: string[]): Promise<{ data: Float32Array; dim: number }>;
  /** Releases the ONNX sessions (native memory). */
  dispose(): Promise<void>;
}

// transformers.js reads its settings from one global object when a model loads, so loads
// are serialised: two providers with different folders must not interleave.
let loading: Promise<unknown> = Promise.resolve();

function serialised<T>(run: () => Promise<T>): Promise<T> {
  const next = loading.then(run, run);
  loading = next.catch(() => undefined);
  return next;
}

type Tok = ((texts: string | string[], o: Record<string, unknown>) => Record<string, { data: ArrayLike<bigint>; dims: number[]; ort_tensor: unknown }>) & {
  model_max_length?: number;
};
type OrtSession = {
  inputNames: string[];
  outputNames: string[];
  run(feeds: Record<string, unknown>, fetches?: string[]): Promise<Record<string, { data: Float32Array; dims: number[] }>>;
  release?(): Promise<void>;
};
type MakeTensor = (ids: BigInt64Array, dims: number[]) => unknown;

function sessionOptions(threads: number) {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    // Idle intra-op threads otherwise spin for a while after every run: on a small model
    // that burnt about as much CPU as the work itself, taken from the chunking worker and
    // from the user's other programs.
    extra: { session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } } },
  };
}

/** transformers.js pointed at a model folder or the hub cache (the global settings it loads with). */
async function transformersFor(src: Exclude<LocalModelSource, { kind: "missing" }>) {
  const transformers = await importTransformers();
  const { env } = transformers;
  env.allowLocalModels = true;
  if (src.kind === "folder") {
    env.allowRemoteModels = false;
    env.localModelPath = dirname(src.dir) + "/";
    return { transformers, id: basename(src.dir) };
  }
  // a cached hub model loads like a folder; only an uncached one may download
  env.allowRemoteModels = !src.cached;
  env.localModelPath = src.cacheDir + "/";
  env.cacheDir = src.cacheDir;
  return { transformers, id: src.id };
}

/** Runs a graph that pools in C++ (output `sentence_embedding`) on rows of token ids. */
async function runPooled(session: OrtSession, makeTensor: MakeTensor, rows: number[][]): Promise<{ data: Float32Array; dim: number }> {
  const width = Math.max(...rows.map((r) => r.length));
  const ids = new BigInt64Array(rows.length * width);
  const mask = new BigInt64Array(rows.length * width);
  rows.forEach((r, i) => {
    for (let j = 0; j < r.length; j++) {
      ids[i * width + j] = BigInt(r[j]);
      mask[i * width + j] = 1n;
    }
  });
  const dims = [rows.length, width];
  const feeds: Record<string, unknown> = { input_ids: makeTensor(ids, dims), attention_mask: makeTensor(mask, dims) };
  if (session.inputNames.includes("token_type_ids")) feeds.token_type_ids = makeTensor(new BigInt64Array(ids.length), dims);
  let out = fetchListIgnored.has(session) ? undefined : (await session.run(feeds, ["sentence_embedding"])).sentence_embedding;
  if (!out) {
    fetchListIgnored.add(session);
    out = (await session.run(feeds)).sentence_embedding;
  }
  return { data: out.data, dim: out.dims[out.dims.length - 1] };
}

// Under transformers.js 3 (onnxruntime-node 1.19) a run asked for `sentence_embedding` alone
// answers with the graph's first output instead; such a session is then run for all outputs.
const fetchListIgnored = new WeakSet<OrtSession>();

/**
 * The bundled model's own path, without any inference runtime: its preprocessed words go
 * straight to WordPiece ids (the BERT normaliser done by hand for words outside a-z and 0-9)
 * and the static token table read out of model.onnx turns them into vectors (static-table.ts).
 * Null when the folder is not such a model.
 */
function loadStaticDirect(src: Exclude<LocalModelSource, { kind: "missing" }>, dir: string, facts: ModelFacts): LoadedModel | null {
  if (src.kind !== "folder" || facts.preprocess !== IDENTIFIER_PREPROCESS) return null;
  const wordPiece = loadWordPiece(dir);
  if (!wordPiece) return null;
  // Read into the memory the table is summed in (static-table.ts): the table is a view of it.
  // Its rows are read as texts use them: a process that embeds only queries reads ~1% of them.
  const file = fileIntoOnDemand(join(dir, "onnx", "model.onnx"), modelFileBuffer);
  let table: StaticTable | null = null;
  try {
    table = staticTableFromOnnx(file.bytes, file.ensure);
  } finally {
    if (!table) file.close();
  }
  if (!table) return null;
  const maxLength = Math.min(Number(readTokenizerConfig(dir).model_max_length) || 512, 8192);
  const idsOf = textIdsEncoder(wordPiece, maxLength);
  return {
    async dispose() {
      file.close();
    },
    async embed(texts: string[]) {
      return { data: embedTokenIds(table, texts.map(idsOf)), dim: table.dim };
    },
  };
}

function readTokenizerConfig(dir: string): Record<string, unknown> {
  try {
    return readJson(join(dir, "tokenizer_config.json")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function loadModel(src: Exclude<LocalModelSource, { kind: "missing" }>, threads: number, dir: string, facts: ModelFacts): Promise<LoadedModel> {
  const direct = loadStaticDirect(src, dir, facts);
  if (direct) return direct;
  return serialised(async (): Promise<LoadedModel> => {
    const { transformers, id } = await transformersFor(src);
    const { AutoTokenizer, AutoModel, Tensor } = transformers;
    const options = { dtype: "fp32", device: "cpu", cache_dir: src.kind === "hub" ? src.cacheDir : undefined, session_options: sessionOptions(threads) };
    const tokenizer = (await AutoTokenizer.from_pretrained(id, options as never)) as unknown as Tok;
    const model = (await AutoModel.from_pretrained(id, options as never)) as unknown as {
      sessions?: Record<string, OrtSession>;
      dispose?: () => Promise<unknown>;
      (inputs: Record<string, unknown>): Promise<Record<string, { data: Float32Array; dims: number[] }>>;
    };
    const session = model.sessions?.model;
    const maxLength = Math.min(tokenizer.model_max_length ?? 512, 8192);
    // A model trained on preprocessed words (but not loadable directly, e.g. from the hub
    // cache): its words go to WordPiece ids here, and a graph that pools in C++ returns
    // vectors, so no [B, T, D] tensor reaches JS.
    const preprocessed = facts.preprocess === IDENTIFIER_PREPROCESS;
    const wordPiece = preprocessed ? loadWordPiece(dir) : null;
    const pooledInGraph = !!session && session.outputNames.includes("sentence_embedding");
    // A plain WordPiece vocabulary: text read to ids as the direct path reads it (text-ids.ts).
    const textIds = wordPiece ? textIdsEncoder(wordPiece, maxLength) : null;
    const tokenIds = (text: string): number[] => Array.from(tokenizer(text, { truncation: true, max_length: maxLength }).input_ids.data, Number);
    const makeTensor: MakeTensor = (ids, dims) => new Tensor("int64", ids, dims).ort_tensor;
    return {
      async dispose() {
        await model.dispose?.();
      },
      async embed(raw: string[]) {
        if (session && pooledInGraph && textIds) return runPooled(session, makeTensor, raw.map(textIds));
        const texts = preprocessed ? raw.map((t) => preprocessForEmbedding(t)) : raw;
        if (session && pooledInGraph) return runPooled(session, makeTensor, texts.map(tokenIds));
        // any other model: transformers.js end to end, mean pooling done here
        const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: maxLength });
        const hidden = (await model(inputs)).last_hidden_state;
        return { data: meanPoolNormalise(hidden.data, hidden.dims, inputs.attention_mask.data), dim: hidden.dims[2] };
      },
    };
  });
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Masked mean over the sequence axis, then L2 normalisation; mask read once per position. */
function meanPoolNormalise(hidden: Float32Array, dims: number[], mask: ArrayLike<bigint>): Float32Array {
  const [batch, seq, dim] = dims;
  const out = new Float32Array(batch * dim);
  for (let i = 0; i < batch; i++) {
    const o = i * dim;
    for (let j = 0; j < seq; j++) {
      if (mask[i * seq + j] === 0n) continue;
      const h = (i * seq + j) * dim;
      for (let k = 0; k < dim; k++) out[o + k] += hidden[h + k];
    }
    let norm = 0;
    for (let k = 0; k < dim; k++) norm += out[o + k] * out[o + k];
    norm = Math.sqrt(norm);
    if (norm > 0) for (let k = 0; k < dim; k++) out[o + k] /= norm;
  }
  return out;
}

export interface LocalProviderOptions {
  root: string;
  logger?: Logger;
}

/**
 * A batch is padded to its longest text, and the runtime keeps buffers as big as the biggest
 * batch it ever ran: so a batch is bounded by (texts x longest text), not by a count alone.
 * 16 KB: embedding 8,000 chunks of the bench tree peaked at 212 MB instead of 306 MB (64 texts
 * per batch), in the same CPU time.
 */
const BATCH_MAX_CHARS = 16 * 1024;

/** Splits length-sorted indices into batches of at most `maxCount` and `maxChars` padded characters. */
export function lengthBoundedBatches(order: number[], lengthOf: (i: number) => number, maxCount: number, maxChars: number): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  let longest = 0;
  for (const i of order) {
    const len = Math.max(1, lengthOf(i));
    const wider = Math.max(longest, len);
    if (cur.length > 0 && (cur.length >= maxCount || (cur.length + 1) * wider > maxChars)) {
      out.push(cur);
      cur = [];
      longest = 0;
    }
    cur.push(i);
    longest = Math.max(longest, len);
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/** Sort key that groups texts of similar length, so batches carry little padding. */
function roughLength(text: string): number {
  return text.length;
}

/**
 * Loads the configured local model. Resolves to `{ provider: null, reason }` when the model
 * is missing or cannot be loaded (the reason is one line: what is missing, how to fix it).
 */
export async function createLocalProvider(
  cfg: RagConfig["embedding"],
  opts: LocalProviderOptions,
): Promise<{ provider: EmbeddingProvider | null; reason: string | null }> {
  const src = resolveLocalModel(cfg.model, opts.root, cfg.cacheDir);
  if (src.kind === "missing") return { provider: null, reason: src.reason };
  const modelName = cfg.model.trim() || BUNDLED_MODEL_ID;
  const started = Date.now();
  const dir = src.kind === "folder" ? src.dir : join(src.cacheDir, src.id);
  let facts: ModelFacts = src.kind === "folder" || src.cached ? readFacts(dir) : { dimension: null, preprocess: null };
  const threads = Math.max(1, cfg.threads);
  const failure = (e: unknown): string => {
    const why = (e instanceof Error ? e.message : String(e)).split("\n")[0];
    if (e instanceof MissingTransformersError) return `embedding model "${modelName}" could not be loaded: ${why}`;
    return src.kind === "hub" && !src.cached
      ? `embedding model "${src.id}" is not in ${src.cacheDir} and could not be downloaded (${why}): connect once to download it, or set embedding.model to a local folder`
      : `embedding model "${modelName}" could not be loaded (${why}): check the model folder's config.json, tokenizer.json and onnx/model.onnx`;
  };
  const announce = () => opts.logger?.info("embedding model loaded", { model: modelName, folder: dir, ms: Date.now() - started, threads });
  // A model folder on disk that declares its dimension needs no runtime until the first embed:
  // a pass with nothing to embed (a no-op re-index) never reads the table or starts a runtime.
  const lazy = (src.kind === "folder" || src.cached) && facts.dimension !== null && existsSync(join(dir, "onnx", "model.onnx"));
  let loaded: LoadedModel | null = null;
  let starting: Promise<LoadedModel> | null = null;
  if (!lazy) {
    try {
      loaded = await loadModel(src, threads, dir, facts);
    } catch (e) {
      return { provider: null, reason: `${failure(e)}; searching keyword-only` };
    }
    if (src.kind === "hub" && !src.cached) {
      // just downloaded: its config is on disk now; reload so a model that declares the
      // preprocessing gets it (the loader read no facts before the files existed)
      facts = readFacts(dir);
      if (facts.preprocess) {
        await loaded.dispose();
        loaded = await loadModel({ ...src, cached: true }, threads, dir, facts);
      }
    }
    announce();
  }
  const model = (): Promise<LoadedModel> => {
    if (loaded) return Promise.resolve(loaded);
    starting ??= loadModel(src, threads, dir, facts).then(
      (m) => {
        loaded = m;
        announce();
        return m;
      },
      (e: unknown) => {
        starting = null;
        throw new Error(failure(e));
      },
    );
    return starting;
  };
  let dimension = facts.dimension;
  let fingerprint: string | undefined;
  const batchSize = Math.max(1, cfg.batchSize);

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    const out = await (await model()).embed(texts);
    const dim = out.dim;
    dimension = dim;
    const vectors: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      const v = out.data.slice(i * dim, (i + 1) * dim);
      // a text with no known token pools to zero, which normalises to NaN: keep it a zero vector
      if (!Number.isFinite(v[0])) v.fill(0);
      vectors.push(v);
    }
    return vectors;
  }

  const provider: EmbeddingProvider = {
    provider: "local",
    model: modelName,
    // Hashing the model's files is only needed by an index pass: a process that only searches skips it.
    get fingerprint() {
      fingerprint ??= modelFingerprint(dir);
      return fingerprint;
    },
    // A static model (a table look-up per token, ~1,800 chunks/s on one core): recomputing a
    // vector is cheaper than keeping a second copy of each one in an embedding cache.
    cheapToRecompute: facts.preprocess === IDENTIFIER_PREPROCESS,
    async dimension() {
      if (dimension === null) await embedBatch(["dimension probe"]);
      return dimension as number;
    },
    async embed(texts: string[], _purpose: EmbedPurpose) {
      // one model for documents and queries; batches formed over length-sorted texts
      const order = texts.map((_, i) => i).sort((a, b) => roughLength(texts[a]) - roughLength(texts[b]));
      const result: Float32Array[] = new Array(texts.length);
      for (const idx of lengthBoundedBatches(order, (i) => roughLength(texts[i]), batchSize, BATCH_MAX_CHARS)) {
        const vecs = await embedBatch(idx.map((i) => texts[i]));
        idx.forEach((i, k) => (result[i] = vecs[k]));
      }
      return result;
    },
    async close() {
      const m = loaded ?? (starting ? await starting.catch(() => null) : null);
      await m?.dispose();
    },
  };
  return { provider, reason: null };
}
