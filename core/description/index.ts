// Public surface of F14 descriptions and image indexing, and their hook into the indexer:
// `registerDescriptionSteps()` adds the image file handler and the description enricher to the
// indexer's step lists (idempotent). Each workspace/config gets one Describer, reused across
// passes; `beginDescriptionPass()` refills the per-pass budgets.
import { resolveStore } from "../config/load.js";
import type { RagConfig } from "../config/defaults.js";
import type { Logger } from "../engine-types.js";
import { registerChunkEnricher, registerFileHandler, type FileHandlerContext } from "../indexing/handlers.js";
import { createDescriber, type Describer } from "./describer.js";
import { createImageFileHandler } from "./images.js";

export { createDescriber, type Describer, type DescriberOptions } from "./describer.js";
export {
  createImageFileHandler,
  DESCRIBED_IMAGE_TYPES,
  getImageDescription,
  IMAGE_CHUNK_KIND,
  IMAGE_LANGUAGE,
  imageChunk,
  imageMime,
} from "./images.js";
export { DescriptionCache, DESCRIPTION_CACHE_FILE } from "./cache.js";
export { createChatClient, type ChatClient, type LlmMessage } from "./llm.js";

const describers = new Map<string, Describer | null>();
let logger: Logger | undefined;

/** The settings a describer depends on; a change makes a new describer (and a fresh cache read). */
function describerKey(config: RagConfig, root: string): string {
  const e = config.embedding;
  return JSON.stringify([root, config.description, e.provider, e.baseUrl, e.apiKey, e.maxRetries, e.concurrency, e.retryBaseMs, e.proxy, config.vectorStore.path, config.chunking.maxSvgSizeBytes]);
}

/** The describer for this workspace and config, or null when descriptions are off. Throws one line when misconfigured. */
export function describerFor(ctx: Pick<FileHandlerContext, "config" | "root">): Describer | null {
  if (!ctx.config.description.enabled) return null;
  const key = describerKey(ctx.config, ctx.root);
  if (!describers.has(key)) {
    const { stateDir } = resolveStore(ctx.config, ctx.root);
    describers.set(key, createDescriber(ctx.config, { root: ctx.root, stateDir, logger }));
  }
  return describers.get(key)!;
}

/** Call at the start of an index pass: every describer's chunk and token budget is full again. */
export function beginDescriptionPass(): void {
  for (const d of describers.values()) d?.beginPass();
}

let registered = false;

/** Adds the image handler and the description step to the indexer (once per process). */
export function registerDescriptionSteps(options: { logger?: Logger } = {}): void {
  logger = options.logger ?? logger;
  if (registered) return;
  registered = true;
  registerFileHandler(createImageFileHandler(describerFor));
  registerChunkEnricher({
    name: "llm-descriptions",
    async enrich(records, ctx) {
      const describer = describerFor(ctx);
      if (!describer || records.length === 0) return;
      const descriptions = await describer.describeChunks(records);
      for (const r of records) {
        const d = descriptions.get(r.contentHash);
        if (d) r.description = d;
      }
    },
  });
}

/** Drops every describer (tests, engine close); their caches are saved first. */
export async function closeDescribers(): Promise<void> {
  const all = [...describers.values()];
  describers.clear();
  await Promise.all(all.map((d) => d?.close()));
}
