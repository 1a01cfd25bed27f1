// The `local` embedding provider: an ONNX model run in-process by transformers.js on
// onnxruntime-node. Node-only (reads model folders from disk). The model is, in order:
//   1. a folder under the package's models/ (the bundled model by default),
//   2. an absolute folder, or one relative to the workspace root,
//   3. a Hugging Face id: used from `embedding.cacheDir` when already there (offline), and
//      downloaded into it otherwise — the only case in which a network call is made.
// A missing model is not an error for the engine: it gets a one-line reason and runs
// keyword-only.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { RagConfig } from "../config/defaults.js";
import { BUNDLED_MODEL_ID } from "../config/defaults.js";
import type { Logger } from "../engine-types.js";
import { modelsDir } from "../paths.js";
import type { EmbeddingProvider, EmbedPurpose } from "../types.js";
import { IDENTIFIER_PREPROCESS, preprocessForEmbedding } from "./preprocess.js";

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

type FeatureExtractor = (texts: string[], options: { pooling: "mean"; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>;

// transformers.js reads its settings from one global object when a model loads, so loads
// are serialised: two providers with different folders must not interleave.
let loading: Promise<unknown> = Promise.resolve();

async function loadPipeline(src: Exclude<LocalModelSource, { kind: "missing" }>, threads: number): Promise<FeatureExtractor> {
  const run = async (): Promise<FeatureExtractor> => {
    const { env, pipeline } = await import("@huggingface/transformers");
    env.allowLocalModels = true;
    let id: string;
    if (src.kind === "folder") {
      env.allowRemoteModels = false;
      env.localModelPath = dirname(src.dir) + "/";
      id = basename(src.dir);
    } else {
      // a cached hub model loads like a folder; only an uncached one may download
      env.allowRemoteModels = !src.cached;
      env.localModelPath = src.cacheDir + "/";
      env.cacheDir = src.cacheDir;
      id = src.id;
    }
    const options = {
      dtype: "fp32",
      device: "cpu",
      cache_dir: src.kind === "hub" ? src.cacheDir : undefined,
      session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
    };
    const fe = await pipeline("feature-extraction", id, options as never);
    return fe as unknown as FeatureExtractor;
  };
  const next = loading.then(run, run);
  loading = next.catch(() => undefined);
  return next;
}

export interface LocalProviderOptions {
  root: string;
  logger?: Logger;
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
  let extractor: FeatureExtractor;
  try {
    extractor = await loadPipeline(src, Math.max(1, cfg.threads));
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split("\n")[0];
    const reason =
      src.kind === "hub" && !src.cached
        ? `embedding model "${src.id}" is not in ${src.cacheDir} and could not be downloaded (${why}): connect once to download it, or set embedding.model to a local folder; searching keyword-only`
        : `embedding model "${modelName}" could not be loaded (${why}): check the model folder's config.json, tokenizer.json and onnx/model.onnx; searching keyword-only`;
    return { provider: null, reason };
  }
  const dir = src.kind === "folder" ? src.dir : join(src.cacheDir, src.id);
  const facts = readFacts(dir);
  const prepare = facts.preprocess === IDENTIFIER_PREPROCESS ? (t: string) => preprocessForEmbedding(t) : (t: string) => t;
  opts.logger?.info("embedding model loaded", { model: modelName, folder: dir, ms: Date.now() - started, threads: cfg.threads });

  let dimension = facts.dimension;
  const batchSize = Math.max(1, cfg.batchSize);

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    const out = await extractor(texts.map(prepare), { pooling: "mean", normalize: true });
    const dim = out.dims[out.dims.length - 1];
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
    async dimension() {
      if (dimension === null) await embedBatch(["dimension probe"]);
      return dimension as number;
    },
    async embed(texts: string[], _purpose: EmbedPurpose) {
      // one model for documents and queries; batches formed over length-sorted texts
      const order = texts.map((_, i) => i).sort((a, b) => roughLength(texts[a]) - roughLength(texts[b]));
      const result: Float32Array[] = new Array(texts.length);
      for (let s = 0; s < order.length; s += batchSize) {
        const idx = order.slice(s, s + batchSize);
        const vecs = await embedBatch(idx.map((i) => texts[i]));
        idx.forEach((i, k) => (result[i] = vecs[k]));
      }
      return result;
    },
    async close() {
      const fe = extractor as unknown as { dispose?: () => Promise<void> };
      await fe.dispose?.();
    },
  };
  return { provider, reason: null };
}
