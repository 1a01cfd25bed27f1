// Named retrieval configurations for `eval --preset` / `--compare`. A preset is config
// overrides (deep-merged over the workspace config when the engine opens) plus search options.
// Portable: reading preset files from disk is the host's job.

export interface EvalPreset {
  name: string;
  /** Deep-merged over the loaded config (same shape as opencode-rag.json). */
  overrides: Record<string, unknown>;
  /** Passed to Engine.search for every query. */
  search: { mode?: "hybrid" | "keyword" | "vector"; rank?: boolean };
}

const BUILT_IN: Record<string, Omit<EvalPreset, "name">> = {
  /** What users get: the config as loaded (hybrid when a model is present, ranking on). */
  default: { overrides: {}, search: {} },
  /** Fusion without the ranking stage. */
  "no-rank": { overrides: {}, search: { rank: false } },
  /** BM25 with ranking. */
  "keyword-only": { overrides: {}, search: { mode: "keyword" } },
  /** Plain BM25: no vectors, no ranking — the floor to beat. */
  bm25: { overrides: {}, search: { mode: "keyword", rank: false } },
  /** Vectors with ranking. */
  "vector-only": { overrides: {}, search: { mode: "vector" } },
  /** Vectors alone. */
  "vector-raw": { overrides: {}, search: { mode: "vector", rank: false } },
};

export const BUILT_IN_PRESETS = Object.keys(BUILT_IN);

/** A built-in preset by name (`no-rank` and `--no-rank` both work); null when unknown. */
export function builtInPreset(name: string): EvalPreset | null {
  const key = name.replace(/^--/, "");
  const p = BUILT_IN[key];
  return p ? { name: key, overrides: structuredClone(p.overrides), search: { ...p.search } } : null;
}

/**
 * A preset from a parsed JSON file: either `{ "overrides": {...}, "search": {...} }` or a
 * plain config-override object. `name` is what tables show (usually the file name).
 */
export function presetFromJson(name: string, value: unknown): EvalPreset {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${name}: a preset file must hold a JSON object (config overrides, or {"overrides", "search"})`);
  }
  const v = value as Record<string, unknown>;
  const structured = "overrides" in v || "search" in v;
  const overrides = (structured ? v.overrides ?? {} : v) as Record<string, unknown>;
  const search = (structured ? v.search ?? {} : {}) as EvalPreset["search"];
  if (typeof overrides !== "object" || overrides === null) throw new Error(`${name}: "overrides" must be an object`);
  if (search.mode !== undefined && !["hybrid", "keyword", "vector"].includes(search.mode)) {
    throw new Error(`${name}: search.mode must be "hybrid", "keyword" or "vector"`);
  }
  if (search.rank !== undefined && typeof search.rank !== "boolean") throw new Error(`${name}: search.rank must be true or false`);
  return { name, overrides, search: { mode: search.mode, rank: search.rank } };
}
