// Public surface of quirk memory. `openQuirkMemory` wires the portable logic to the Node
// side: the audit log file, the diagnostics log, and the workspace's store.
import { join } from "node:path";
import type { RagConfig } from "../config/defaults.js";
import type { EmbeddingProvider, VectorStore } from "../types.js";
import { JsonlQuirkLog, jsonlDiagnostics, MEMORY_DIAGNOSTICS_FILE, QUIRK_LOG_FILE } from "./quirk-log.js";
import { QuirkMemory, type MemorySettings } from "./quirks.js";
import { StoreQuirkIndex } from "./store-index.js";

export * from "./quirks.js";
export { checkTrust, TRUST_RULES } from "./trust.js";
export { stripSecrets, redactSecrets, redactionCount } from "../redact.js";
export { lexicalSimilarity, tokenOverlap, wordTokens } from "./similarity.js";
export { effectiveConfidence } from "./decay.js";
export { QUIRK_KIND, quirkFilePath } from "./store-index.js";

/** The table of the workspace's store that holds quirk rows, beside the code's table. */
export const QUIRK_TABLE = "quirks";
export { QUIRK_LOG_FILE, MEMORY_DIAGNOSTICS_FILE } from "./quirk-log.js";
export { captureQuirks, detectErrorSignal, QUIRK_ENFORCEMENT_RULES } from "./capture.js";

export interface OpenQuirkMemoryOptions {
  stateDir: string;
  /** A getter: the engine's config changes on reload. */
  config: () => RagConfig;
  store: () => Promise<VectorStore>;
  embedder: () => Promise<EmbeddingProvider | null>;
  countTokens?: (text: string) => number;
}

export function memorySettings(config: RagConfig): MemorySettings {
  return config.memory;
}

export function openQuirkMemory(o: OpenQuirkMemoryOptions): QuirkMemory {
  return new QuirkMemory({
    log: new JsonlQuirkLog(join(o.stateDir, QUIRK_LOG_FILE)),
    index: new StoreQuirkIndex({ store: o.store, embedder: o.embedder }),
    settings: () => memorySettings(o.config()),
    countTokens: o.countTokens,
    diagnostics: jsonlDiagnostics(join(o.stateDir, MEMORY_DIAGNOSTICS_FILE)),
  });
}
