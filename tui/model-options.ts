// The model picker's list: the bundled offline model first (embedding only), then every model of
// OpenCode's registered providers grouped by provider and sorted, then "Custom…".
// Picking an entry turns into config changes (provider, model, base URL) in one place here.
import { BUNDLED_MODEL_ID } from "../core/config/defaults.js";

/** The parts of OpenCode's Provider (api.state.provider) the picker needs. */
export interface ProviderLike {
  id: string;
  name: string;
  options?: Record<string, unknown>;
  models: Record<string, { id: string; name: string; api?: { url?: string; npm?: string } }>;
}

export type ModelTarget = "embedding" | "description";

export interface ModelOption {
  /** Group heading: "Bundled", a provider's name, or "Other". */
  group: string;
  title: string;
  /** Config changes applied when picked; null for "Custom…" (the id is typed). */
  changes: Record<string, unknown> | null;
}

export const CUSTOM_MODEL_TITLE = "Custom…";

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, "en", { sensitivity: "base" });

/** Our provider kind for an OpenCode provider: Ollama's own API or any OpenAI-compatible one. */
function providerKind(p: ProviderLike, model: { api?: { npm?: string } }): "ollama" | "openai" {
  const npm = model.api?.npm ?? "";
  return p.id.toLowerCase().includes("ollama") || npm.includes("ollama") ? "ollama" : "openai";
}

function baseUrlOf(p: ProviderLike, model: { api?: { url?: string } }): string {
  const fromOptions = p.options?.baseURL ?? p.options?.baseUrl;
  const url = typeof fromOptions === "string" && fromOptions ? fromOptions : model.api?.url ?? "";
  return url.replace(/\/+$/, "");
}

export function buildModelOptions(providers: readonly ProviderLike[], target: ModelTarget): ModelOption[] {
  const options: ModelOption[] = [];
  if (target === "embedding") {
    options.push({
      group: "Bundled",
      title: `${BUNDLED_MODEL_ID} (offline, ships with opencode-rag)`,
      changes: { "embedding.provider": "local", "embedding.model": BUNDLED_MODEL_ID, "embedding.baseUrl": "" },
    });
  }
  for (const p of [...providers].sort(byName)) {
    for (const m of Object.values(p.models).sort(byName)) {
      const kind = providerKind(p, m);
      let baseUrl = baseUrlOf(p, m);
      // Our Ollama client speaks Ollama's native API at the server root, not its /v1 shim.
      if (kind === "ollama") baseUrl = baseUrl.replace(/\/v1$/, "");
      options.push({
        group: p.name,
        title: m.name,
        changes: { [`${target}.provider`]: kind, [`${target}.model`]: m.id, [`${target}.baseUrl`]: baseUrl },
      });
    }
  }
  options.push({ group: "Other", title: CUSTOM_MODEL_TITLE, changes: null });
  return options;
}

/**
 * Config changes for a typed model id. "local/<id>", "ollama/<id>" or "openai/<id>" choose the
 * provider too; a bare id keeps the current provider.
 */
export function customModelChanges(target: ModelTarget, typed: string): Record<string, unknown> | string {
  const text = typed.trim();
  if (!text) return "type a model id, e.g. nomic-embed-text or ollama/nomic-embed-text";
  const m = /^(local|ollama|openai)\/(.+)$/.exec(text);
  if (!m) return { [`${target}.model`]: text };
  if (m[1] === "local" && target === "description") return "descriptions need a chat model from ollama or openai, not local";
  return { [`${target}.provider`]: m[1], [`${target}.model`]: m[2] };
}
