// Where a running engine answers other processes' searches, and how a caller proves it wants
// the same answers. Node-only (paths, hashing); the server and the client both use it.
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { RagConfig } from "../config/defaults.js";
import { privateTempDir } from "../files/private-temp.js";

/** Version of the line protocol; a client and a server that differ do not talk. */
export const QUERY_PROTOCOL = 1;

/**
 * The socket of a workspace's query server. Unix socket paths are limited to ~104 bytes, so it
 * lives in a private folder of the temp dir, named by a hash of the state folder; Windows uses a
 * named pipe.
 */
export function querySocketPath(stateDir: string): string {
  const id = createHash("sha256").update(stateDir).digest("hex").slice(0, 20);
  if (process.platform === "win32") return `\\\\.\\pipe\\opencode-rag-${id}`;
  return join(privateTempDir(), `${id}.sock`);
}

/**
 * What decides a search's answer besides the query: the workspace, the store and every setting
 * except logging and the watcher's own. A server answers only callers with the same fingerprint,
 * so `--config other.json` never gets the running engine's results.
 */
export function queryFingerprint(root: string, storeUri: string, config: RagConfig): string {
  const { logging: _logging, autoIndex: _autoIndex, ...rest } = config;
  return createHash("sha256").update(stableJson({ root, storeUri, config: rest })).digest("hex").slice(0, 32);
}

/** JSON with object keys sorted, so the same settings hash alike whatever order they were merged in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
