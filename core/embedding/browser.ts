// The local embedding model in a browser page: the same ONNX file and tokenizer as in Node,
// with the same text preprocessing, so a text embeds to the same vector in both (parity is
// tested). The bundled static model is computed from its table as in Node (static-table.ts);
// any other model runs on transformers.js and onnxruntime-web (wasm). No Node built-ins.
import type { EmbeddingProvider, EmbedPurpose } from "../types.js";
import { IDENTIFIER_PREPROCESS, preprocessForEmbedding } from "./preprocess.js";
import { embedTokenIds, modelFileBuffer, staticTableFromOnnx } from "./static-table.js";
import { textIdsEncoder } from "./text-ids.js";
import { wordPieceFromTokenizerJson } from "./wordpiece.js";

export interface BrowserEmbedderOptions {
  /** URL path of the folder that holds model folders, e.g. "/models/" (must be a relative path). */
  modelsUrl: string;
  modelId: string;
  /** URL folder with onnxruntime-web's `ort-wasm-simd-threaded.asyncify.{mjs,wasm}` (models other than the static one). */
  ortUrl: string;
  batchSize?: number;
}

type Extractor = (texts: string[], o: { pooling: "mean"; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>;

const slash = (u: string) => (u.endsWith("/") ? u : u + "/");

/** Vectors of texts as written: a model trained on preprocessed words preprocesses them itself. */
type Embed = (texts: string[]) => Promise<{ data: Float32Array; dim: number }>;

/** The model file copied where the table is summed in WebAssembly (as Node reads it there). */
function inKernelMemory(bytes: Uint8Array): Uint8Array {
  const room = modelFileBuffer(bytes.length);
  room.set(bytes);
  return room;
}

/** The static table model without a runtime, reading text as local.ts does; null when the folder holds another model. */
async function staticEmbedder(modelUrl: string, maxLength: number): Promise<Embed | null> {
  const [tokenizer, onnx] = await Promise.all([fetch(`${modelUrl}tokenizer.json`), fetch(`${modelUrl}onnx/model.onnx`)]);
  if (!tokenizer.ok || !onnx.ok) return null;
  const wordPiece = wordPieceFromTokenizerJson(await tokenizer.json());
  const table = wordPiece ? staticTableFromOnnx(inKernelMemory(new Uint8Array(await onnx.arrayBuffer()))) : null;
  if (!wordPiece || !table) return null;
  const idsOf = textIdsEncoder(wordPiece, maxLength);
  return async (texts) => ({ data: embedTokenIds(table, texts.map(idsOf)), dim: table.dim });
}

async function transformersEmbedder(o: BrowserEmbedderOptions, preprocessed: boolean): Promise<Embed> {
  const { env, pipeline } = await import("@huggingface/transformers");
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  // transformers.js treats an absolute http URL here as "not local": keep it a path.
  env.localModelPath = slash(o.modelsUrl);
  const onnx = env.backends.onnx as { wasm?: { wasmPaths?: unknown; numThreads?: number } };
  if (onnx.wasm) {
    const ort = slash(o.ortUrl);
    onnx.wasm.wasmPaths = { mjs: `${ort}ort-wasm-simd-threaded.asyncify.mjs`, wasm: `${ort}ort-wasm-simd-threaded.asyncify.wasm` };
    // Threads need a cross-origin isolated page; one thread works everywhere.
    onnx.wasm.numThreads = 1;
  }
  const extractor = (await pipeline("feature-extraction", o.modelId, { dtype: "fp32", device: "wasm" } as never)) as unknown as Extractor;
  return async (raw) => {
    const texts = preprocessed ? raw.map((t) => preprocessForEmbedding(t)) : raw;
    const r = await extractor(texts, { pooling: "mean", normalize: true });
    return { data: r.data, dim: r.dims[r.dims.length - 1] };
  };
}

export async function createBrowserEmbedder(o: BrowserEmbedderOptions): Promise<EmbeddingProvider> {
  const modelUrl = `${slash(o.modelsUrl)}${o.modelId}/`;
  const config = (await (await fetch(`${modelUrl}config.json`)).json()) as {
    hidden_size?: number;
    opencode_rag?: { preprocess?: string };
  };
  const identifiers = config.opencode_rag?.preprocess === IDENTIFIER_PREPROCESS;
  const maxLength = await fetch(`${modelUrl}tokenizer_config.json`)
    .then((r) => (r.ok ? r.json() : {}))
    .then((c: { model_max_length?: number }) => Math.min(Number(c.model_max_length) || 512, 8192))
    .catch(() => 512);
  const direct = identifiers ? await staticEmbedder(modelUrl, maxLength) : null;
  const run = direct ?? (await transformersEmbedder(o, identifiers));
  let dimension = config.hidden_size ?? 0;
  const batchSize = o.batchSize ?? 32;
  return {
    provider: "local",
    model: o.modelId,
    cheapToRecompute: direct !== null,
    async dimension() {
      return dimension;
    },
    async embed(texts: string[], _purpose: EmbedPurpose) {
      const out: Float32Array[] = [];
      for (let s = 0; s < texts.length; s += batchSize) {
        const batch = texts.slice(s, s + batchSize);
        const r = await run(batch);
        dimension = r.dim;
        for (let i = 0; i < batch.length; i++) {
          const v = r.data.slice(i * dimension, (i + 1) * dimension);
          if (!Number.isFinite(v[0])) v.fill(0);
          out.push(v);
        }
      }
      return out;
    },
  };
}
