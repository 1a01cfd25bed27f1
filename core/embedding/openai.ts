// The `openai` embedding provider: any OpenAI-compatible POST {baseUrl}/embeddings with
// {model, input: [...], encoding_format: "float"} and Authorization: Bearer <key>. Works with
// OpenAI itself and with compatible servers (LM Studio, vLLM, llama.cpp, LiteLLM, Azure-style
// gateways that keep the same body), which usually need no key.
import type { RagConfig } from "../config/defaults.js";
import type { EmbeddingProvider } from "../types.js";
import { resolveApiKey, serviceFor } from "./api-keys.js";
import { createHttpClient, RemoteServiceError, settingsOptions, type HttpClient, type RemoteSettings } from "./http.js";
import { remoteModelName, type RemoteProviderOptions } from "./ollama.js";
import { createRemoteProvider } from "./remote-provider.js";
import type { Logger } from "../engine-types.js";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const OPENAI_DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

export interface OpenAIProviderOptions extends RemoteProviderOptions {
  /** Workspace root, for OpenCode's project config when looking for the key. */
  root?: string;
  /** Environment for key lookup; default process.env. */
  env?: Record<string, string | undefined>;
}

export function openaiBaseUrl(configured: string): string {
  return (configured.trim() || OPENAI_DEFAULT_BASE_URL).replace(/\/+(?=\?|$)/, "");
}

/** Azure OpenAI: base URL like https://NAME.openai.azure.com/openai/deployments/DEPLOYMENT?api-version=... */
function isAzure(baseUrl: string): boolean {
  return /^https:\/\/[^/]+\.(openai\.azure\.com|cognitiveservices\.azure\.com)(\/|$)/i.test(baseUrl);
}

export function openaiClient(
  service: string,
  cfg: RemoteSettings,
  keyPrefix: string,
  options: OpenAIProviderOptions & { logger?: Logger },
): HttpClient {
  const baseUrl = openaiBaseUrl(cfg.baseUrl);
  const key = resolveApiKey({ configKey: cfg.apiKey, root: options.root ?? process.cwd(), baseUrl, env: options.env });
  const known = serviceFor(baseUrl);
  // Hosted services always need a key; compatible servers on one's own machine usually do not.
  if (!key && known.provider) {
    throw new RemoteServiceError(
      `no API key for ${baseUrl}: set ${keyPrefix}.apiKey, env ${known.env}, or provider.${known.provider}.options.apiKey in opencode.json`,
    );
  }
  if (key) options.logger?.debug(`${service}: API key from ${key.source}`);
  return createHttpClient({
    service,
    baseUrl,
    ...settingsOptions(cfg, keyPrefix),
    // Azure OpenAI takes the key in `api-key`; everyone else in a bearer token.
    headers: key ? (isAzure(baseUrl) ? { "api-key": key.key } : { authorization: `Bearer ${key.key}` }) : undefined,
    unreachableHint: `start the server or set ${keyPrefix}.baseUrl`,
    adviseOnStatus: (status) =>
      status === 401 || status === 403
        ? `check ${keyPrefix}.apiKey (or env ${known.env})`
        : status === 404
          ? `check ${keyPrefix}.model and that ${keyPrefix}.baseUrl ends where /embeddings lives (often .../v1)`
          : "",
    logger: options.logger,
  });
}

interface EmbeddingsResponse {
  data?: Array<{ index?: number; embedding?: number[] | string }>;
}

export function createOpenAIProvider(config: RagConfig["embedding"], options: OpenAIProviderOptions = {}): EmbeddingProvider {
  const model = remoteModelName(config.model, OPENAI_DEFAULT_EMBEDDING_MODEL);
  const client = openaiClient("the OpenAI-compatible API", config, "embedding", options);

  async function embedBatch(texts: string[]): Promise<number[][]> {
    const body = await client.postJson<EmbeddingsResponse>("/embeddings", {
      model,
      input: texts,
      encoding_format: "float",
      ...(config.dimensions > 0 ? { dimensions: config.dimensions } : {}),
    });
    const data = Array.isArray(body.data) ? [...body.data] : [];
    // The spec promises input order via `index`; sort in case a gateway reorders.
    data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return data.map((d) => (typeof d.embedding === "string" ? decodeBase64Floats(d.embedding) : (d.embedding ?? [])));
  }

  return createRemoteProvider({ provider: "openai", model, batchSize: config.batchSize, client, embedBatch });
}

/** Some gateways ignore encoding_format and send base64 little-endian float32. */
function decodeBase64Floats(b64: string): number[] {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return Array.from(new Float32Array(bytes.buffer, 0, Math.floor(bytes.length / 4)));
}
