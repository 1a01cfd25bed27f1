// Finds the workspace's effective config and state folder the same way the server plugin and
// the CLI do (core/config/load.ts), so all three read and write the same files.
import { loadConfig, resolveStore } from "../core/config/load.js";
import { DEFAULT_CONFIG, type RagConfig } from "../core/config/defaults.js";

export interface WorkspaceConfig {
  root: string;
  stateDir: string;
  config: RagConfig;
  /** Set when the config or overrides file is invalid; the config shown is then the file-less one. */
  problem: string | null;
}

export function loadWorkspaceConfig(root: string): WorkspaceConfig {
  try {
    const loaded = loadConfig({ root });
    return { root, stateDir: loaded.stateDir, config: loaded.config, problem: null };
  } catch (err) {
    const message = (err as Error).message;
    try {
      // A broken overrides file must not hide the dialog that can repair it.
      const loaded = loadConfig({ root, ignoreOverrides: true });
      return { root, stateDir: loaded.stateDir, config: loaded.config, problem: message };
    } catch {
      // The config file itself is broken: fall back to the defaults' store location.
      const config = structuredClone(DEFAULT_CONFIG);
      return { root, stateDir: resolveStore(config, root).stateDir, config, problem: message };
    }
  }
}
