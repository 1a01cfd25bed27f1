// Validates a user's partial config against the shape of DEFAULT_CONFIG, so every error names
// the exact key, what was expected and what was found. Portable: no Node built-ins.
import { DEFAULT_CONFIG, ENUM_KEYS, OPEN_MAP_KEYS } from "./defaults.js";

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return `${typeof value === "object" ? "an object" : `the ${typeof value} ${String(value)}`}`;
}

function expectedName(def: unknown): string {
  if (Array.isArray(def)) return "an array";
  if (def !== null && typeof def === "object") return "an object";
  return `a ${typeof def}`;
}

/** Returns the list of problems (empty when valid). `source` names the file in messages. */
export function validateConfig(input: unknown, source = "config"): string[] {
  const problems: string[] = [];
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return [`${source}: the top level must be a JSON object, found ${describe(input)}`];
  }
  const { [SCHEMA_KEY]: schema, ...rest } = input as Record<string, unknown>;
  if (schema !== undefined && typeof schema !== "string") {
    problems.push(`${source}: "${SCHEMA_KEY}" must be a string, the path or URL of the config's JSON Schema, found ${describe(schema)}; remove it (opencode-rag init writes one)`);
  }
  walk(rest, DEFAULT_CONFIG as unknown as Record<string, unknown>, "", source, problems);
  return problems;
}

function walk(
  value: Record<string, unknown>,
  defaults: Record<string, unknown>,
  prefix: string,
  source: string,
  problems: string[],
): void {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (!(key in defaults)) {
      const known = Object.keys(defaults).join(", ");
      problems.push(`${source}: unknown key "${path}" (known keys${prefix ? ` in "${prefix}"` : ""}: ${known})`);
      continue;
    }
    const def = defaults[key];
    if (!sameType(def, v)) {
      problems.push(`${source}: "${path}" must be ${expectedName(def)}, found ${describe(v)}`);
      continue;
    }
    const allowed = ENUM_KEYS[path];
    if (allowed && !allowed.includes(v as string)) {
      problems.push(`${source}: "${path}" must be one of ${allowed.map((a) => `"${a}"`).join(", ")}, found ${describe(v)}`);
      continue;
    }
    const range = checkValue(path, v);
    if (range) {
      problems.push(`${source}: ${range}`);
      continue;
    }
    if (typeof v === "number" && (!Number.isFinite(v) || v < 0)) {
      problems.push(`${source}: "${path}" must be a non-negative number, found ${describe(v)}`);
      continue;
    }
    if (OPEN_MAP_KEYS[path]) continue;
    if (Array.isArray(v)) {
      checkArray(path, v, def as unknown[], source, problems);
    } else if (v !== null && typeof v === "object") {
      walk(v as Record<string, unknown>, def as Record<string, unknown>, path, source, problems);
    }
  }
}

/** Most threads the local runtime may be given; load.ts narrows it to the machine's cores. */
export const MAX_EMBEDDING_THREADS = 64;

/** The top-level key an editor reads the config's JSON Schema from; the only key not in the defaults. */
export const SCHEMA_KEY = "$schema";

/** A number with a range of its own; every other number is finite and not negative. */
export interface NumberRange {
  integer?: boolean;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  /** What the number is, in a few words, after the range. */
  means?: string;
  fix: string;
}

export const NUMBER_RANGES: Record<string, NumberRange> = {
  "embedding.threads": { integer: true, minimum: 1, maximum: MAX_EMBEDDING_THREADS, fix: "use about the number of CPU cores" },
  "indexing.maxCpuShare": { exclusiveMinimum: 0, maximum: 1, means: "a share of the cores", fix: "use 0.5 for half the cores" },
};

/** Strings that must hold more than white space, with what to write instead. */
export const NON_BLANK_KEYS: Record<string, string> = {
  "vectorStore.path": 'must name a folder or URI, found an empty string; use ".opencode/rag_db" or remove the key',
};

function inRange(v: number, r: NumberRange): boolean {
  if (r.integer && !Number.isInteger(v)) return false;
  if (r.minimum !== undefined && v < r.minimum) return false;
  if (r.exclusiveMinimum !== undefined && v <= r.exclusiveMinimum) return false;
  return r.maximum === undefined || v <= r.maximum;
}

/** "a whole number from 1 to 64", "a number above 0 and at most 1". */
function rangeWords(r: NumberRange): string {
  const low = r.exclusiveMinimum !== undefined ? ` above ${r.exclusiveMinimum}` : r.minimum !== undefined ? ` from ${r.minimum}` : "";
  const high = r.maximum === undefined ? "" : low.startsWith(" from") ? ` to ${r.maximum}` : `${low ? " and" : ""} at most ${r.maximum}`;
  return `${r.integer ? "a whole number" : "a number"}${low}${high}${r.means ? ` (${r.means})` : ""}`;
}

/** Value rules beyond the type: a value that passes them can still hang or misplace the index. */
function checkValue(path: string, v: unknown): string | null {
  const range = NUMBER_RANGES[path];
  if (range && typeof v === "number" && !inRange(v, range)) return `"${path}" must be ${rangeWords(range)}, found ${describe(v)}; ${range.fix}`;
  if (NON_BLANK_KEYS[path] && typeof v === "string" && v.trim() === "") return `"${path}" ${NON_BLANK_KEYS[path]}`;
  const map = OPEN_MAP_KEYS[path];
  if (map && v && typeof v === "object") {
    const fits = (x: unknown) => (map === "string" ? typeof x === "string" : Array.isArray(x) && x.every((e) => typeof e === "string"));
    const bad = Object.entries(v as Record<string, unknown>).find(([, x]) => !fits(x));
    if (bad && map === "string") return `"${path}.${bad[0]}" must be a string (LanceDB takes every storage option as text), found ${describe(bad[1])}; write it in quotes`;
    if (bad) return `"${path}.${bad[0]}" must be an array of strings like ["match_statement"], found ${describe(bad[1])}`;
  }
  return null;
}

function sameType(def: unknown, v: unknown): boolean {
  if (Array.isArray(def)) return Array.isArray(v);
  if (def !== null && typeof def === "object") return v !== null && typeof v === "object" && !Array.isArray(v);
  return typeof def === typeof v;
}

function checkArray(path: string, v: unknown[], def: unknown[], source: string, problems: string[]): void {
  if (path === "chunkers") {
    v.forEach((entry, i) => {
      const e = entry as { module?: unknown; extensions?: unknown };
      if (!e || typeof e !== "object" || typeof e.module !== "string") {
        problems.push(`${source}: "chunkers[${i}].module" must be a string path to a chunker module`);
      } else if (e.extensions !== undefined && (!Array.isArray(e.extensions) || e.extensions.some((x) => typeof x !== "string"))) {
        problems.push(`${source}: "chunkers[${i}].extensions" must be an array of strings like [".rs"]`);
      }
    });
    return;
  }
  const elementType = def.length > 0 ? typeof def[0] : "string";
  v.forEach((item, i) => {
    if (typeof item !== elementType) problems.push(`${source}: "${path}[${i}]" must be a ${elementType}, found ${describe(item)}`);
  });
}

type Plain = Record<string, unknown>;

/** Deep-merges `over` onto `base` per section: objects merge, arrays and scalars replace. */
export function deepMerge<T>(base: T, over: unknown): T {
  if (over === undefined || over === null || typeof over !== "object" || Array.isArray(over)) return base;
  const out: Plain = { ...(base as Plain) };
  for (const [k, v] of Object.entries(over as Plain)) {
    const b = out[k];
    if (v !== null && typeof v === "object" && !Array.isArray(v) && b !== null && typeof b === "object" && !Array.isArray(b)) {
      out[k] = deepMerge(b, v);
    } else if (v !== undefined) {
      out[k] = v;
    }
  }
  return out as T;
}

/** Reads a dotted key ("retrieval.topK") from a config-shaped object. */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Plain)[part];
  }
  return cur;
}
