// Which settings, when changed, make the existing chunks wrong: their values are hashed into
// the manifest, and a different hash on the next pass means a clean rebuild.
import { REINDEX_KEYS, type RagConfig } from "../config/defaults.js";
import { getPath } from "../config/validate.js";
import { CHUNKING_VERSION } from "../chunking/index.js";
import { hashBytes } from "./hash.js";
import { REDACTION_VERSION } from "../redact.js";

/**
 * Bumped when the indexer's own output changes shape (chunk ids, embedded text, keyword
 * documents), so an index written by an older version is rebuilt rather than mixed.
 */
export const INDEX_FORMAT = 4;

/** Embedding provider and model are recorded in the manifest as themselves (clearer reasons). */
export function chunkingFingerprint(config: RagConfig): string {
  // The chunker's own version too: a newer chunker may cut the same file differently.
  // And the redactor's: an index written before a rule existed may hold that secret.
  const values: Record<string, unknown> = { format: INDEX_FORMAT, chunker: CHUNKING_VERSION, redaction: REDACTION_VERSION };
  for (const key of REINDEX_KEYS) if (!key.startsWith("embedding.")) values[key] = getPath(config, key);
  return hashBytes(JSON.stringify(values)).slice(0, 16);
}

/**
 * Why the settings behind a stored fingerprint call for a rebuild, or null when they do not.
 * Descriptions turned off need none (the stored ones stay right; new chunks just get none);
 * turned on, existing chunks have none, so the index is rebuilt (the description cache keeps
 * that cheap).
 */
export function chunkingChangeReason(stored: string, config: RagConfig): string | null {
  if (stored === chunkingFingerprint(config)) return null;
  const withDescriptions = (enabled: boolean) => chunkingFingerprint({ ...config, description: { ...config.description, enabled } });
  if (!config.description.enabled && stored === withDescriptions(true)) return null;
  if (config.description.enabled && stored === withDescriptions(false)) return "descriptions were turned on";
  return "the chunking settings changed";
}
