// What the settings dialog shows: every editable key, grouped into the categories of the
// dialog, with the kind of editor it needs. Keys, defaults and allowed values all come from
// core/config/defaults.ts; this file only decides presentation.
import { DEFAULT_CONFIG, ENUM_KEYS, REINDEX_KEYS } from "../core/config/defaults.js";
import { getPath } from "../core/config/validate.js";

export type FieldKind = "integer" | "number" | "boolean" | "enum" | "text" | "json" | "model" | "keybinding";

export interface SettingField {
  /** Dotted config key, e.g. "retrieval.topK". */
  key: string;
  label: string;
  kind: FieldKind;
  /** One line shown under the list when the field is selected. */
  help: string;
  /** For kind "model": which config section the picked model goes to. */
  modelTarget?: "embedding" | "description";
}

export interface SettingCategory {
  id: string;
  title: string;
  fields: SettingField[];
}

const keybindingLabels: Record<string, string> = {
  injectFiles: "Append related file list",
  injectChunks: "Append related code chunks",
  settings: "Open these settings",
};

export const SETTINGS_CATEGORIES: SettingCategory[] = [
  {
    id: "retrieval",
    title: "Retrieval",
    fields: [
      { key: "retrieval.topK", label: "Results per search (topK)", kind: "integer", help: "How many chunks a search returns." },
      { key: "retrieval.minScore", label: "Minimum score", kind: "number", help: "Results scoring below this (0..1) are dropped." },
      { key: "retrieval.maxChunks", label: "Max chunks", kind: "integer", help: "Upper bound on chunks any single retrieval may return." },
      { key: "retrieval.hybrid", label: "Hybrid search", kind: "boolean", help: "Fuse keyword (BM25) and vector results." },
    ],
  },
  {
    id: "autoIndex",
    title: "Auto-Indexing",
    fields: [
      { key: "autoIndex.enabled", label: "Watch and re-index", kind: "boolean", help: "Re-index changed files in the background." },
      { key: "autoIndex.debounceMs", label: "Debounce (ms)", kind: "integer", help: "Wait this long after the last change before a pass." },
      { key: "autoIndex.backend", label: "Watcher backend", kind: "enum", help: "chokidar watches files; git polls the working tree." },
    ],
  },
  {
    id: "chunking",
    title: "Chunking",
    fields: [
      { key: "chunking.overlapLines", label: "Overlap lines", kind: "integer", help: "Lines shared by neighbouring fallback chunks." },
      { key: "chunking.maxSvgSizeBytes", label: "Max SVG size (bytes)", kind: "integer", help: "Larger SVG files are not indexed." },
      {
        key: "chunking.nodeTypes",
        label: "Extra node types (JSON)",
        kind: "json",
        help: 'Per language tree-sitter node types to chunk, e.g. {"python": ["match_statement"]}.',
      },
    ],
  },
  {
    id: "embedding",
    title: "Embedding",
    fields: [
      { key: "embedding.model", label: "Model", kind: "model", modelTarget: "embedding", help: "Pick from OpenCode's providers, the bundled model, or type one." },
      { key: "embedding.provider", label: "Provider", kind: "enum", help: "local runs in-process; ollama and openai call a server." },
      { key: "embedding.baseUrl", label: "Base URL", kind: "text", help: "Server address for ollama / OpenAI-compatible providers." },
    ],
  },
  {
    id: "description",
    title: "LLM Descriptions",
    fields: [
      { key: "description.enabled", label: "Describe chunks with an LLM", kind: "boolean", help: "Adds a one-line summary to each chunk (needs a model)." },
      { key: "description.model", label: "Model", kind: "model", modelTarget: "description", help: "Pick a chat model from OpenCode's providers or type one." },
      { key: "description.baseUrl", label: "Base URL", kind: "text", help: "Server address of the description model." },
    ],
  },
  {
    id: "keybindings",
    title: "Keybindings",
    fields: Object.keys(DEFAULT_CONFIG.keybindings).map((name) => ({
      key: `keybindings.${name}`,
      label: keybindingLabels[name] ?? name,
      kind: "keybinding" as const,
      help:
        name === "settings"
          ? "Keys like ctrl+shift+r, f6; alternatives with commas. Terminals without extended keys send ctrl+r: /rag-settings always works."
          : "Keys like ctrl+return, ctrl+alt+return, f7; alternatives with commas. Without extended keys ctrl+return arrives as return.",
    })),
  },
];

/** Allowed values of an enum key (from the core's ENUM_KEYS). */
export function enumValues(key: string): readonly string[] {
  return ENUM_KEYS[key] ?? [];
}

/** True when changing this key means the index must be rebuilt. */
export function needsReindex(key: string): boolean {
  return REINDEX_KEYS.some((k) => key === k || key.startsWith(`${k}.`));
}

/** The value shown for a field, compact enough for one line. */
export function formatValue(field: SettingField, config: unknown): string {
  const v = getPath(config, field.key);
  if (field.kind === "json") {
    const text = JSON.stringify(v ?? {});
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  }
  if (field.kind === "boolean") return v ? "on" : "off";
  if (v === "" || v === undefined || v === null) return "(not set)";
  return String(v);
}
