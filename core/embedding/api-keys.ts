// Finds the API key for an OpenAI-compatible service, so a user who already set up OpenCode
// does not have to paste the key twice. The service is known by the base URL's host (OpenAI,
// OpenRouter, Groq, ...; no URL = OpenAI). Order (first hit wins):
//   1. the key in our own config (embedding.apiKey / description.apiKey)
//   2. the service's env variable (OPENAI_API_KEY, GROQ_API_KEY, ...; for a host we do not
//      know, OPENAI_API_KEY, as the OpenAI SDKs do with a custom base URL)
//   3. OpenCode's config files: <root>/.opencode/opencode.json(c), <root>/opencode.json(c),
//      $XDG_CONFIG_HOME/opencode/opencode.json(c) (default ~/.config/opencode/): the provider
//      whose options.baseURL matches ours, else the known service's provider entry;
//      "{env:NAME}" values resolved
//   4. OpenCode's stored logins for the known service: $XDG_DATA_HOME/opencode/auth.json
// A key stored for one service is never sent to another host. Node-only (reads files).
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

/** Hosted OpenAI-compatible APIs, with the id OpenCode gives their provider and their usual env variable. */
export const KNOWN_SERVICES: ReadonlyArray<{ host: string; provider: string; env: string }> = [
  { host: "api.openai.com", provider: "openai", env: "OPENAI_API_KEY" },
  { host: "openrouter.ai", provider: "openrouter", env: "OPENROUTER_API_KEY" },
  { host: "api.groq.com", provider: "groq", env: "GROQ_API_KEY" },
  { host: "api.mistral.ai", provider: "mistral", env: "MISTRAL_API_KEY" },
  { host: "api.deepseek.com", provider: "deepseek", env: "DEEPSEEK_API_KEY" },
  { host: "api.x.ai", provider: "xai", env: "XAI_API_KEY" },
  { host: "api.anthropic.com", provider: "anthropic", env: "ANTHROPIC_API_KEY" },
];

/** The known service behind a base URL (none given = OpenAI), or an unknown host. */
export function serviceFor(baseUrl: string): { provider: string | null; env: string } {
  if (!baseUrl.trim()) return KNOWN_SERVICES[0];
  let host = "";
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    // a malformed URL is reported by the HTTP client
  }
  return KNOWN_SERVICES.find((s) => s.host === host) ?? { provider: null, env: "OPENAI_API_KEY" };
}

export function resolveApiKey(lookup: ApiKeyLookup): ResolvedApiKey | null {
  const env = lookup.env ?? process.env;
  if (lookup.configKey.trim()) return { key: lookup.configKey.trim(), source: "config" };
  const service = serviceFor(lookup.baseUrl ?? "");
  const fromEnv = env[service.env]?.trim();
  if (fromEnv) return { key: fromEnv, source: `env ${service.env}` };
  for (const file of openCodeConfigFiles(lookup.root, env)) {
    const key = keyFromOpenCodeConfig(file, lookup.baseUrl ?? "", service.provider, env);
    if (key) return { key, source: file };
  }
  if (!service.provider) return null;
  const auth = join(dataHome(env), "opencode", "auth.json");
  const stored = keyFromAuthFile(auth, service.provider);
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

function keyFromOpenCodeConfig(
  file: string,
  baseUrl: string,
  provider: string | null,
  env: Record<string, string | undefined>,
): string | null {
  const config = readJsonc(file) as { provider?: Record<string, ProviderEntry> } | null;
  const providers = config?.provider;
  if (!providers || typeof providers !== "object") return null;
  const wanted = normaliseUrl(baseUrl);
  const byUrl = wanted
    ? Object.values(providers).find((p) => typeof p?.options?.baseURL === "string" && normaliseUrl(p.options.baseURL) === wanted)
    : undefined;
  for (const entry of [byUrl, provider ? providers[provider] : undefined]) {
    const raw = entry?.options?.apiKey;
    if (typeof raw !== "string") continue;
    const key = substituteEnv(raw, env).trim();
    if (key) return key;
  }
  return null;
}

function keyFromAuthFile(file: string, provider: string): string | null {
  const auth = readJsonc(file) as Record<string, { type?: string; key?: unknown }> | null;
  const entry = auth?.[provider];
  return entry && entry.type === "api" && typeof entry.key === "string" && entry.key.trim() ? entry.key.trim() : null;
}

/** OpenCode lets config values say "{env:NAME}"; an unset variable becomes "". */
function substituteEnv(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
}

function normaliseUrl(url: string): string {
  return url.trim().replace(/\/+$/, "").toLowerCase();
}
