// Step 5 of a pass: optional enrichers (descriptions, …) between chunking and embedding, then
// vectors: from the embedding cache by content (remote models) or from the rows the batch
// replaces (models cheap to recompute, which keep no cache), the rest from the model in batches.
import { embeddingText } from "../chunking/index.js";
import type { EmbeddingCache } from "./embedding-cache.js";
import { chunkEnrichers } from "./handlers.js";
import { hashBytes } from "./hash.js";
import type { BatchChanges } from "./pass-records.js";
import { checkAbort, type PassState } from "./pass-state.js";
import { oneLine } from "../error-line.js";
import { reuseKey, vectorsOfRows } from "./vector-reuse.js";

export async function enrichRecords(pass: PassState, changes: BatchChanges): Promise<void> {
  const { config, env, options, progress } = pass;
  if (changes.addRecords.length === 0) return;
  for (const enricher of chunkEnrichers()) {
    // The progress bar says "describing" only when descriptions (F14) are on.
    if (config.description.enabled) progress.phase("describing");
    try {
      await enricher.enrich(changes.addRecords, { ...{ chunking: config.chunking, config, root: env.root }, signal: options.signal });
    } catch (err) {
      env.logger.error(`${enricher.name} failed; chunks are indexed without it`, { error: oneLine(err) });
    }
  }
}

/**
 * One vector per added record (null without a provider). Vectors in `cache`, or without a
 * cache those of the rows this batch replaces (same text, lines moved), are not computed again.
 */
export async function embedRecords(pass: PassState, changes: BatchChanges, cache: EmbeddingCache | null): Promise<Array<Float32Array | null>> {
  const { provider, config, summary, progress } = pass;
  const { addRecords, addTexts } = changes;
  const vectors: Array<Float32Array | null> = new Array(addRecords.length).fill(null);
  if (provider && addRecords.length > 0) {
    progress.phase("embedding");
    // A description written by an enricher is part of what gets embedded (and of the cache key).
    const inputs = addRecords.map((r, i) => (r.description ? embeddingText(r) : addTexts[i]));
    const keys = addRecords.map((r, i) => (r.description ? hashBytes(inputs[i]) : r.contentHash));
    // The rows this batch replaces are still in the store: their deletion is written after this.
    const replaced = cache ? null : await vectorsOfRows(pass.store, changes.removeIds);
    const missing: number[] = [];
    for (let i = 0; i < addRecords.length; i++) {
      const cached = cache?.get(keys[i]);
      const reused = cached ? undefined : replaced?.get(reuseKey(addRecords[i].contentHash, addRecords[i].description));
      if (cached) {
        vectors[i] = cached;
        summary.chunksFromCache++;
      } else if (reused) {
        vectors[i] = reused;
        summary.chunksReused++;
      } else missing.push(i);
    }
    // A remote provider sends up to `concurrency` batches at once: give it that many per call.
    const parallel = provider.provider === "local" ? 1 : Math.max(1, config.embedding.concurrency);
    const batchSize = Math.max(1, config.embedding.batchSize) * parallel;
    for (let s = 0; s < missing.length; s += batchSize) {
      checkAbort(pass);
      const slice = missing.slice(s, s + batchSize);
      const out = await provider.embed(
        slice.map((i) => inputs[i]),
        "document",
      );
      slice.forEach((i, k) => {
        vectors[i] = out[k];
        cache?.set(keys[i], out[k]);
      });
      summary.chunksEmbedded += slice.length;
      progress.state.chunksDone += slice.length;
      progress.report();
    }
  }
  // Vectors are appended to the cache per batch: a pass killed later does not pay for them again.
  cache?.flush();
  return vectors;
}
