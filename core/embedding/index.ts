// The embedding provider factory: one call turns `embedding.*` config into a provider, or
// into a one-line reason why there is none (the engine then runs keyword-only and says so).
import type { RagConfig } from "../config/defaults.js";
import type { Logger } from "../engine-types.js";
import type { EmbeddingProvider } from "../types.js";
import { createLocalProvider } from "./local.js";
import { createOllamaProvider } from "./ollama.js";
import { createOpenAIProvider } from "./openai.js";

export { preprocessForEmbedding, splitIdentifier, IDENTIFIER_PREPROCESS } from "./preprocess.js";
export { resolveLocalModel, type LocalModelSource } from "./local.js";

export interface EmbeddingProviderResult {
  provider: EmbeddingProvider | null;
  /** Why there is no provider (one line: what is missing and how to get it); null when there is one. */
  reason: string | null;
}

export async function createEmbeddingProvider(
  config: RagConfig,
  opts: { root: string; logger?: Logger },
): Promise<EmbeddingProviderResult> {
  const cfg = config.embedding;
  switch (cfg.provider) {
    case "local":
      return createLocalProvider(cfg, opts);
    // Remote providers: their modules own model defaults, keys and retries.
    case "ollama":
      return { provider: createOllamaProvider(cfg, { logger: opts.logger }), reason: null };
    case "openai":
      try {
        return { provider: createOpenAIProvider(cfg, { logger: opts.logger, root: opts.root }), reason: null };
      } catch (e) {
        // e.g. no API key for api.openai.com: a configuration problem, reported as the reason
        return { provider: null, reason: (e instanceof Error ? e.message : String(e)).split("\n")[0] };
      }
    case "none":
      return { provider: null, reason: 'embedding.provider is "none": searching keyword-only (set "local" to use the bundled model)' };
    default:
      return {
        provider: null,
        reason: `embedding.provider "${String(cfg.provider)}" is not one of local, ollama, openai, none: fix it in the config; searching keyword-only`,
      };
  }
}
