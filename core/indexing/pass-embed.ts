// Step 5 of a pass: optional enrichers (descriptions, …) between chunking and embedding, then
// vectors: from the embedding cache by content, the rest from the model in batches.
import { embeddingText } from "../chunking/index.js";
import type { EmbeddingCache } from "./embedding-cache.js";
import { chunkEnrichers } from "./handlers.js";
import { hashBytes } from "./hash.js";
import type { BatchChanges } from "./pass-records.js";
import { checkAbort, type PassState } from "./pass-state.js";
import { oneLine } from "./prepare-file.js";

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

/** One vector per added record (null without a provider); cached vectors are not computed again. */
export async function embedRecords(pass: PassState, changes: BatchChanges, cache: EmbeddingCache | null): Promise<Array<Float32Array | null>> {
  const { provider, config, summary, progress } = pass;
  const { addRecords, addTexts } = changes;
  const vectors: Array<Float32Array | null> = new Array(addRecords.length).fill(null);
  if (provider && addRecords.length > 0) {
    progress.phase("embedding");
    // A description written by an enricher is part of what gets embedded (and of the cache key).
    const inputs = addRecords.map((r, i) => (r.description ? embeddingText(r) : addTexts[i]));
    const keys = addRecords.map((r, i) => (r.description ? hashBytes(inputs[i]) : r.contentHash));
    const missing: number[] = [];
    for (let i = 0; i < addRecords.length; i++) {
      const hit = cache?.get(keys[i]);
      if (hit) {
        vectors[i] = hit;
        summary.chunksFromCache++;
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
