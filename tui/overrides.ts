// Reads and writes <stateDir>/runtime-overrides.json, the file the settings dialog saves to.
// The server plugin watches it and reloads its config, so no restart is needed.
// Invariants: a write is validated by the core's validator first and never leaves a half-written
// file (temp file + rename in the same folder); existing overrides are merged, not replaced;
// an unreadable file is reported, never silently overwritten.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readJsonFile, RUNTIME_OVERRIDES_FILE } from "../core/config/load.js";
import { validateConfig } from "../core/config/validate.js";
import { writeFileAtomic } from "../core/indexing/atomic-file.js";

export type Overrides = Record<string, unknown>;

export type SaveOutcome = { ok: true; file: string; overrides: Overrides } | { ok: false; problems: string[] };

export function overridesFile(stateDir: string): string {
  return join(stateDir, RUNTIME_OVERRIDES_FILE);
}

/** The current overrides ({} when none). Throws the core's ConfigError when the file is not JSON. */
export function readOverrides(stateDir: string): Overrides {
  const file = overridesFile(stateDir);
  if (!existsSync(file)) return {};
  const value = readJsonFile(file);
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return value as Overrides;
}

/** Sets a dotted key in a nested object, creating sections on the way. */
export function setPath(target: Overrides, key: string, value: unknown): void {
  const parts = key.split(".");
  let cur = target;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== "object" || Array.isArray(next)) cur[part] = {};
    cur = cur[part] as Overrides;
  }
  cur[parts[parts.length - 1]] = value;
}

/** A copy of the current overrides to edit, or the reason the file cannot be edited. */
function editableOverrides(stateDir: string): { copy: Overrides } | { ok: false; problems: string[] } {
  try {
    return { copy: structuredClone(readOverrides(stateDir)) };
  } catch (err) {
    return { ok: false, problems: [`${(err as Error).message} (or delete ${overridesFile(stateDir)} to start over)`] };
  }
}

/** Removes dotted keys (and sections left empty) from the overrides: the config file or default applies again. */
export function removeOverrides(stateDir: string, keys: string[]): SaveOutcome {
  const current = editableOverrides(stateDir);
  if ("problems" in current) return current;
  const next = current.copy;
  for (const key of keys) {
    const parts = key.split(".");
    const trail: Overrides[] = [next];
    for (const part of parts.slice(0, -1)) {
      const child = trail[trail.length - 1][part];
      if (child === null || typeof child !== "object" || Array.isArray(child)) break;
      trail.push(child as Overrides);
    }
    if (trail.length !== parts.length) continue; // not set
    delete trail[trail.length - 1][parts[parts.length - 1]];
    for (let i = trail.length - 1; i > 0; i--) {
      if (Object.keys(trail[i]).length === 0) delete trail[i - 1][parts[i - 1]];
    }
  }
  return writeOverrides(stateDir, next);
}

function writeOverrides(stateDir: string, next: Overrides): SaveOutcome {
  const file = overridesFile(stateDir);
  try {
    writeFileAtomic(file, JSON.stringify(next, null, 2) + "\n");
  } catch (err) {
    return { ok: false, problems: [`cannot write ${file}: ${(err as Error).message}; check the folder's permissions`] };
  }
  return { ok: true, file, overrides: next };
}

/**
 * Merges `changes` (dotted keys → values) into the overrides file after validating the result.
 * On any problem nothing is written and the problems are returned, one line each.
 */
export function saveOverrides(stateDir: string, changes: Record<string, unknown>): SaveOutcome {
  const current = editableOverrides(stateDir);
  if ("problems" in current) return current;
  const next = current.copy;
  const file = overridesFile(stateDir);
  for (const [key, value] of Object.entries(changes)) setPath(next, key, value);
  const problems = validateConfig(next, file);
  if (problems.length > 0) return { ok: false, problems };
  return writeOverrides(stateDir, next);
}
