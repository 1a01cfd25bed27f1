// Finds the API key for an OpenAI-compatible service, so a user who already set up OpenCode
// does not have to paste the key twice. Order (first hit wins):
//   1. the key in our own config (embedding.apiKey / description.apiKey)
//   2. env OPENAI_API_KEY
//   3. OpenCode's config files: <root>/.opencode/opencode.json(c), <root>/opencode.json(c),
//      $XDG_CONFIG_HOME/opencode/opencode.json(c) (default ~/.config/opencode/): the provider
//      whose options.baseURL matches ours, else the "openai" provider; "{env:NAME}" values resolved
//   4. OpenCode's stored logins: $XDG_DATA_HOME/opencode/auth.json (default ~/.local/share/...)
// Node-only (reads files).
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";

export interface ApiKeyLookup {
  /** The key from our own config; wins when non-empty. */
  configKey: string;
  /** Workspace root (for the project-level OpenCode config). */
  root: string;
  /** Our base URL, used to pick a matching OpenCode provider entry. */
  baseUrl?: string;
  /** Defaults to process.env; tests pass their own. */
  env?: Record<string, string | undefined>;
}

export interface ResolvedApiKey {
  key: string;
  /** Where it came from, for status output; never the key itself. */
  source: string;
}

export function resolveApiKey(lookup: ApiKeyLookup): ResolvedApiKey | null {
  const env = lookup.env ?? process.env;
  if (lookup.configKey.trim()) return { key: lookup.configKey.trim(), source: "config" };
  const fromEnv = env.OPENAI_API_KEY?.trim();
  if (fromEnv) return { key: fromEnv, source: "env OPENAI_API_KEY" };
  for (const file of openCodeConfigFiles(lookup.root, env)) {
    const key = keyFromOpenCodeConfig(file, lookup.baseUrl ?? "", env);
    if (key) return { key, source: file };
  }
  const auth = join(dataHome(env), "opencode", "auth.json");
  const stored = keyFromAuthFile(auth);
  if (stored) return { key: stored, source: auth };
  return null;
}

export function openCodeConfigFiles(root: string, env: Record<string, string | undefined>): string[] {
  const configHome = env.XDG_CONFIG_HOME?.trim() || join(homeOf(env), ".config");
  const dirs = [join(root, ".opencode"), root, join(configHome, "opencode")];
  const files: string[] = [];
  for (const dir of dirs) for (const name of ["opencode.json", "opencode.jsonc"]) files.push(join(dir, name));
  return files;
}

function homeOf(env: Record<string, string | undefined>): string {
  return env.HOME?.trim() || env.USERPROFILE?.trim() || homedir();
}

function dataHome(env: Record<string, string | undefined>): string {
  return env.XDG_DATA_HOME?.trim() || join(homeOf(env), ".local", "share");
}

function readJsonc(file: string): unknown {
  if (!existsSync(file)) return null;
  try {
    return parseJsonc(readFileSync(file, "utf8"), [], { allowTrailingComma: true, disallowComments: false });
  } catch {
    return null;
  }
}

type ProviderEntry = { options?: { apiKey?: unknown; baseURL?: unknown } };

function keyFromOpenCodeConfig(file: string, baseUrl: string, env: Record<string, string | undefined>): string | null {
  const config = readJsonc(file) as { provider?: Record<string, ProviderEntry> } | null;
  const providers = config?.provider;
  if (!providers || typeof providers !== "object") return null;
  const wanted = normaliseUrl(baseUrl);
  const byUrl = wanted
    ? Object.values(providers).find((p) => typeof p?.options?.baseURL === "string" && normaliseUrl(p.options.baseURL) === wanted)
    : undefined;
  for (const entry of [byUrl, providers.openai]) {
    const raw = entry?.options?.apiKey;
    if (typeof raw !== "string") continue;
    const key = substituteEnv(raw, env).trim();
    if (key) return key;
  }
  return null;
}

function keyFromAuthFile(file: string): string | null {
  const auth = readJsonc(file) as Record<string, { type?: string; key?: unknown }> | null;
  const entry = auth?.openai;
  return entry && entry.type === "api" && typeof entry.key === "string" && entry.key.trim() ? entry.key.trim() : null;
}

/** OpenCode lets config values say "{env:NAME}"; an unset variable becomes "". */
function substituteEnv(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
}

function normaliseUrl(url: string): string {
  return url.trim().replace(/\/+$/, "").toLowerCase();
}
