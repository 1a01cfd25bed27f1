// The local embedding model in a browser page: the same ONNX file and tokenizer as in Node,
// run by transformers.js on onnxruntime-web (wasm), with the same text preprocessing, so a
// text embeds to the same vector in both (parity is tested). No Node built-ins.
import type { EmbeddingProvider, EmbedPurpose } from "../types.js";
import { IDENTIFIER_PREPROCESS, preprocessForEmbedding } from "./preprocess.js";

export interface BrowserEmbedderOptions {
  /** URL path of the folder that holds model folders, e.g. "/models/" (must be a relative path). */
  modelsUrl: string;
  modelId: string;
  /** URL folder with onnxruntime-web's `ort-wasm-simd-threaded.asyncify.{mjs,wasm}`. */
  ortUrl: string;
  batchSize?: number;
}

type Extractor = (texts: string[], o: { pooling: "mean"; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>;

const slash = (u: string) => (u.endsWith("/") ? u : u + "/");

export async function createBrowserEmbedder(o: BrowserEmbedderOptions): Promise<EmbeddingProvider> {
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
  const config = (await (await fetch(`${slash(o.modelsUrl)}${o.modelId}/config.json`)).json()) as {
    hidden_size?: number;
    opencode_rag?: { preprocess?: string };
  };
  const prepare = config.opencode_rag?.preprocess === IDENTIFIER_PREPROCESS ? (t: string) => preprocessForEmbedding(t) : (t: string) => t;
  const extractor = (await pipeline("feature-extraction", o.modelId, { dtype: "fp32", device: "wasm" } as never)) as unknown as Extractor;
  let dimension = config.hidden_size ?? 0;
  const batchSize = o.batchSize ?? 32;
  return {
    provider: "local",
    model: o.modelId,
    async dimension() {
      return dimension;
    },
    async embed(texts: string[], _purpose: EmbedPurpose) {
      const out: Float32Array[] = [];
      for (let s = 0; s < texts.length; s += batchSize) {
        const batch = texts.slice(s, s + batchSize);
        const r = await extractor(batch.map(prepare), { pooling: "mean", normalize: true });
        dimension = r.dims[r.dims.length - 1];
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
