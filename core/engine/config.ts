// An engine's configuration: the workspace's files plus the host's overrides, and what a
// reload changed.
import { checkThreads, loadConfig, resolveStore, type LoadedConfig } from "../config/load.js";
import { ConfigError, deepMerge, validateConfig } from "../config/validate.js";
import type { OpenEngineOptions } from "../engine-types.js";

export function loadEngineConfig(options: OpenEngineOptions): LoadedConfig {
  const loaded = loadConfig({ root: options.root, configPath: options.configPath });
  if (options.overrides !== undefined && options.overrides !== null) {
    const problems = validateConfig(options.overrides, "overrides");
    if (problems.length > 0) throw new ConfigError(problems.join("\n"));
    loaded.config = deepMerge(loaded.config, options.overrides);
    // The store location may come from the overrides (tests, eval).
    Object.assign(loaded, resolveStore(loaded.config, loaded.root));
    checkThreads(loaded.config, "overrides");
  }
  return loaded;
}

/** The dotted leaf keys whose values differ between two configs, sorted. */
export function changedKeys(before: unknown, after: unknown): string[] {
  const a = flatten(before);
  const b = flatten(after);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}

/** Flattens a config into dotted leaf keys. */
function flatten(obj: unknown, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  if (obj !== null && typeof obj === "object" && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out[prefix] = JSON.stringify(obj);
  }
  return out;
}
