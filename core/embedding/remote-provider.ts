// What every remote embedding provider shares, written once: split texts into batches, send
// the batches concurrently (the HTTP client enforces the concurrency limit), check that each
// answer has one vector per input and a consistent length, and L2-normalise. The Ollama and
// OpenAI files only say how one batch goes over the wire.
import type { EmbedPurpose, EmbeddingProvider } from "../types.js";
import { RemoteServiceError, type HttpClient } from "./http.js";

export interface RemoteProviderSpec {
  provider: string;
  model: string;
  batchSize: number;
  client: HttpClient;
  /** Sends one batch; returns raw vectors in input order. */
  embedBatch(texts: string[]): Promise<number[][]>;
}

/** Models trained with task prefixes embed much better with them (see each model's card). */
const TASK_PREFIXES: Array<{ match: RegExp; document: string; query: string }> = [
  { match: /nomic-embed-text/i, document: "search_document: ", query: "search_query: " },
  { match: /mxbai-embed-large/i, document: "", query: "Represent this sentence for searching relevant passages: " },
];

export function withTaskPrefix(model: string, text: string, purpose: EmbedPurpose): string {
  const rule = TASK_PREFIXES.find((r) => r.match.test(model));
  return rule ? rule[purpose] + text : text;
}

export function createRemoteProvider(spec: RemoteProviderSpec): EmbeddingProvider {
  let dim: number | null = null;
  let probing: Promise<number> | null = null;
  const batchSize = Math.max(1, Math.floor(spec.batchSize) || 1);
  const label = `${spec.provider} model "${spec.model}"`;

  function check(vectors: number[][], expected: number): Float32Array[] {
    if (!Array.isArray(vectors) || vectors.length !== expected) {
      throw new RemoteServiceError(
        `${label} returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${expected} inputs: the server does not speak the expected API (check embedding.baseUrl)`,
      );
    }
    return vectors.map((v) => {
      if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number" && Number.isFinite(x))) {
        throw new RemoteServiceError(`${label} returned a malformed vector: check embedding.model is an embedding model`);
      }
      if (dim !== null && v.length !== dim) {
        throw new RemoteServiceError(
          `${label} returned a ${v.length}-dimensional vector after ${dim}-dimensional ones: the model behind the URL changed; re-run the index`,
        );
      }
      dim ??= v.length;
      return l2Normalise(v);
    });
  }

  async function embedAll(texts: string[], purpose: EmbedPurpose): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    // Empty strings are rejected by OpenAI and embed to nothing useful anywhere.
    const prepared = texts.map((t) => withTaskPrefix(spec.model, t.trim() === "" ? " " : t, purpose));
    const batches: string[][] = [];
    for (let i = 0; i < prepared.length; i += batchSize) batches.push(prepared.slice(i, i + batchSize));
    const results = await Promise.all(batches.map(async (batch) => check(await spec.embedBatch(batch), batch.length)));
    return results.flat();
  }

  return {
    provider: spec.provider,
    model: spec.model,
    async dimension() {
      if (dim !== null) return dim;
      probing ??= embedAll(["dimension probe"], "query").then((v) => v[0].length);
      try {
        return await probing;
      } catch (err) {
        probing = null;
        throw err;
      }
    },
    embed: embedAll,
    close: () => spec.client.close(),
  };
}

export function l2Normalise(v: number[]): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(v.length);
  if (norm === 0) return out;
  for (let i = 0; i < v.length; i++) out[i] = v[i] / norm;
  return out;
}
