// Which model made an index's vectors, as its manifest records it, and whether a model's
// queries can be compared with them. One source for both the pass (rebuild or continue) and
// search (vectors or keywords only): until the pass that rebuilds for a new model commits,
// the committed vectors are another model's, and cosines across two models mean nothing
// even when their vectors have the same length.
import type { EmbeddingProvider } from "../types.js";

/** The model name an index records: the id, with the weights' fingerprint when known (new weights under the same id are another model). */
export function recordedModelName(provider: EmbeddingProvider): string {
  return provider.fingerprint ? `${provider.model}@${provider.fingerprint}` : provider.model;
}

/**
 * Why the committed index's vectors cannot answer `provider`'s queries, in one line, or null
 * when they can (or when there is no index yet, or no model: nothing to compare).
 */
export function vectorsUnusableReason(recorded: { provider: string; model: string } | null, provider: EmbeddingProvider | null): string | null {
  if (!recorded || !provider) return null;
  const now = `${provider.provider}/${provider.model}`;
  if (recorded.provider === "none") return `the index was built keyword-only; the next index pass rebuilds it with ${now} vectors`;
  if (recorded.provider === provider.provider && recorded.model === recordedModelName(provider)) return null;
  const [id] = recorded.model.split("@");
  const was = `${recorded.provider}/${id}`;
  const what = was === now ? `an earlier version of ${now}` : was;
  return `the index holds vectors of ${what}, not of ${now}, until the next index pass rebuilds it`;
}
