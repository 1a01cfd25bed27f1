// The `ollama` embedding provider: POST {baseUrl}/api/embed with {model, input: [...]} (one
// request per batch). Ollama before 0.3 has only /api/embeddings (one prompt per request);
// when /api/embed is missing we fall back to it, one text at a time, through the same client.
import type { Logger } from "../engine-types.js";
import type { RagConfig } from "../config/defaults.js";
import { BUNDLED_MODEL_ID } from "../config/defaults.js";
import type { EmbeddingProvider } from "../types.js";
import { createHttpClient, RemoteServiceError, settingsOptions, type HttpClient, type RemoteSettings } from "./http.js";
import { createRemoteProvider } from "./remote-provider.js";

export const OLLAMA_DEFAULT_BASE_URL = "http://localhost:11434";
export const OLLAMA_DEFAULT_EMBEDDING_MODEL = "nomic-embed-text";

export interface RemoteProviderOptions {
  logger?: Logger;
}

/** The model the user meant: the bundled local model id means "not chosen" for a remote provider. */
export function remoteModelName(configured: string, fallback: string): string {
  const m = configured.trim();
  return m === "" || m === BUNDLED_MODEL_ID ? fallback : m;
}

/**
 * Ollama's own base URL. A trailing /api (as some guides write it) or /v1 (its OpenAI-compatible
 * endpoint, which OpenCode's provider configs point at) is dropped: this client speaks /api/*.
 */
export function ollamaBaseUrl(configured: string): string {
  return (configured.trim() || OLLAMA_DEFAULT_BASE_URL).replace(/\/+$/, "").replace(/\/(api|v1)$/, "");
}

export function ollamaClient(
  service: string,
  cfg: RemoteSettings,
  model: string,
  keyPrefix: string,
  logger?: Logger,
): HttpClient {
  const baseUrl = ollamaBaseUrl(cfg.baseUrl);
  return createHttpClient({
    service,
    baseUrl,
    ...settingsOptions(cfg, keyPrefix),
    // Ollama itself needs no key; one set in config is sent for Ollama behind an auth proxy.
    headers: cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : undefined,
    unreachableHint: `start it with "ollama serve" or set ${keyPrefix}.baseUrl`,
    adviseOnStatus: (status, message) =>
      status === 404 && /not found/i.test(message) && /model/i.test(message)
        ? `run "ollama pull ${model}" or set ${keyPrefix}.model`
        : status === 401 || status === 403
          ? `set ${keyPrefix}.apiKey for the proxy in front of Ollama`
          : "",
    logger,
  });
}

export function createOllamaProvider(config: RagConfig["embedding"], options: RemoteProviderOptions = {}): EmbeddingProvider {
  const model = remoteModelName(config.model, OLLAMA_DEFAULT_EMBEDDING_MODEL);
  const client = ollamaClient("Ollama", config, model, "embedding", options.logger);
  let legacy = false;

  async function embedLegacy(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (const prompt of texts) {
      const body = await client.postJson<{ embedding?: number[] }>("/api/embeddings", { model, prompt });
      out.push(body.embedding ?? []);
    }
    return out;
  }

  async function embedBatch(texts: string[]): Promise<number[][]> {
    if (legacy) return embedLegacy(texts);
    try {
      const body = await client.postJson<{ embeddings?: number[][] }>("/api/embed", {
        model,
        input: texts,
        truncate: true,
        ...(config.dimensions > 0 ? { dimensions: config.dimensions } : {}),
      });
      return body.embeddings ?? [];
    } catch (err) {
      // Old servers answer an unknown route with a plain-text 404 (no JSON "model ... not found").
      if (err instanceof RemoteServiceError && err.status === 404 && !/model/i.test(err.serverMessage ?? "")) {
        options.logger?.info("Ollama has no /api/embed (older than 0.3): using /api/embeddings, one text per request");
        legacy = true;
        return embedLegacy(texts);
      }
      throw err;
    }
  }

  return createRemoteProvider({ provider: "ollama", model, batchSize: config.batchSize, client, embedBatch });
}
