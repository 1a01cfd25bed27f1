// The manifest is the index's commit record: it is written (atomically) only after the store
// rows and the keyword snapshot it names are durable, so whatever a reader finds in it is
// backed by data. Everything not named by the manifest is, by definition, uncommitted.
import { join } from "node:path";
import { readJsonState, writeJsonAtomic } from "./atomic-file.js";

export const MANIFEST_FILE = "manifest.json";
export const MANIFEST_VERSION = 1;

export interface ManifestFileEntry {
  size: number;
  mtimeMs: number;
  /** sha1 of the file's bytes. */
  hash: string;
  chunkIds: string[];
  /** Why the file has no chunks on purpose (binary, no handler), so it is not re-read until it changes. */
  skipped?: string;
}

export interface Manifest {
  version: number;
  /** ISO time of the last successful pass. */
  lastIndexedAt: string;
  provider: string;
  model: string;
  /** null in keyword-only mode. */
  dimension: number | null;
  /** Fingerprint of every setting that changes chunk boundaries or texts. */
  chunkingFingerprint: string;
  /** Store version that matches this manifest; a store found ahead of it is rolled back. */
  storeCheckpoint: number;
  /** Rows the store holds when it matches this manifest. */
  chunkCount: number;
  /** File name (in the state folder) of the keyword index snapshot. */
  keywordFile: string | null;
  /**
   * Small changes since that snapshot, applied in order on load (files in the state folder):
   * a one-file edit writes a few KB instead of the whole keyword index.
   */
  keywordDeltas?: string[];
  /** Increases with every committed pass; readers reload when it changes. */
  generation: number;
  /** Local stores: the table's files and sizes at this commit (a missing or resized one means damage). */
  storeFiles?: Record<string, number>;
  /** HEAD of the workspace's git repository at the last pass (git watch backend). */
  gitHead?: string | null;
  files: Record<string, ManifestFileEntry>;
}

export type ManifestRead =
  | { status: "ok"; manifest: Manifest }
  | { status: "missing" }
  | { status: "corrupt"; reason: string };

export function manifestPath(stateDir: string): string {
  return join(stateDir, MANIFEST_FILE);
}

function isValid(m: unknown): m is Manifest {
  if (!m || typeof m !== "object") return false;
  const x = m as Partial<Manifest>;
  return (
    x.version === MANIFEST_VERSION &&
    typeof x.provider === "string" &&
    typeof x.model === "string" &&
    typeof x.chunkingFingerprint === "string" &&
    typeof x.storeCheckpoint === "number" &&
    typeof x.chunkCount === "number" &&
    typeof x.generation === "number" &&
    !!x.files &&
    typeof x.files === "object"
  );
}

export function readManifest(stateDir: string): ManifestRead {
  const raw = readJsonState<unknown>(manifestPath(stateDir));
  if (raw === null) return { status: "missing" };
  if (raw === "corrupt") return { status: "corrupt", reason: "manifest.json is not valid JSON" };
  if (!isValid(raw)) return { status: "corrupt", reason: "manifest.json has an unknown shape or version" };
  for (const entry of Object.values(raw.files)) {
    if (!entry || typeof entry.size !== "number" || typeof entry.mtimeMs !== "number" || !Array.isArray(entry.chunkIds)) {
      return { status: "corrupt", reason: "manifest.json has a malformed file entry" };
    }
  }
  return { status: "ok", manifest: raw };
}

export function writeManifest(stateDir: string, manifest: Manifest): void {
  writeJsonAtomic(manifestPath(stateDir), manifest);
}

export function emptyManifest(provider: string, model: string, dimension: number | null, chunkingFingerprint: string): Manifest {
  return {
    version: MANIFEST_VERSION,
    lastIndexedAt: "",
    provider,
    model,
    dimension,
    chunkingFingerprint,
    storeCheckpoint: 0,
    chunkCount: 0,
    keywordFile: null,
    generation: 0,
    gitHead: null,
    files: {},
  };
}
