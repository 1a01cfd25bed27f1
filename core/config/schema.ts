// The JSON Schema of the config file (opencode-rag.json, .opencode/rag.json), derived from the
// defaults and the validator's rules, so that an editor completes and checks what loadConfig
// accepts. esbuild.config.mjs writes it to dist/config.schema.json, each key described by its
// doc comment in defaults.ts. Portable: no Node built-ins.
import { DEFAULT_CONFIG, ENUM_KEYS, OPEN_MAP_KEYS } from "./defaults.js";
import { NON_BLANK_KEYS, NUMBER_RANGES, SCHEMA_KEY } from "./validate.js";

export type JsonSchema = { [keyword: string]: unknown };

/** The schema's file name in the package's dist/. */
export const CONFIG_SCHEMA_FILE = "config.schema.json";

/**
 * The schema of the whole file. `descriptions` maps dotted keys ("retrieval.topK") to their
 * documentation; a key without one gets its default only.
 */
export function configSchema(descriptions: Record<string, string> = {}): JsonSchema {
  const body = objectSchema(DEFAULT_CONFIG as unknown as Record<string, unknown>, "", descriptions);
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "opencode-rag configuration",
    description: "opencode-rag.json or .opencode/rag.json. Every key is optional: a partial file is merged over the defaults per section.",
    ...body,
    properties: {
      [SCHEMA_KEY]: { type: "string", description: "The path or URL of this schema, for editors; opencode-rag ignores it." },
      ...(body.properties as JsonSchema),
    },
  };
}

function objectSchema(defaults: Record<string, unknown>, prefix: string, descriptions: Record<string, string>): JsonSchema {
  const properties: JsonSchema = {};
  for (const [key, def] of Object.entries(defaults)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const doc = descriptions[path];
    properties[key] = { ...(doc ? { description: doc } : {}), ...valueSchema(path, def, descriptions) };
  }
  return { type: "object", properties, additionalProperties: false };
}

function valueSchema(path: string, def: unknown, descriptions: Record<string, string>): JsonSchema {
  const map = OPEN_MAP_KEYS[path];
  if (map) {
    const value = map === "string" ? { type: "string" } : { type: "array", items: { type: "string" } };
    return { type: "object", additionalProperties: value, default: def };
  }
  if (path === "chunkers") {
    const entry = { type: "object", required: ["module"], properties: { module: { type: "string" }, extensions: { type: "array", items: { type: "string" } } } };
    return { type: "array", items: entry, default: def };
  }
  if (Array.isArray(def)) {
    const element = def.length > 0 ? typeof def[0] : "string";
    return { type: "array", items: { type: element }, default: def };
  }
  if (def !== null && typeof def === "object") return objectSchema(def as Record<string, unknown>, path, descriptions);
  if (typeof def === "number") return { ...numberSchema(path), default: def };
  if (typeof def === "string") {
    const allowed = ENUM_KEYS[path];
    return { type: "string", ...(allowed ? { enum: [...allowed] } : {}), ...(NON_BLANK_KEYS[path] ? { pattern: "\\S" } : {}), default: def };
  }
  return { type: typeof def, default: def };
}

function numberSchema(path: string): JsonSchema {
  const range = NUMBER_RANGES[path];
  if (!range) return { type: "number", minimum: 0 };
  const { integer, minimum, exclusiveMinimum, maximum } = range;
  return {
    type: integer ? "integer" : "number",
    // Without a lower bound of its own, a number keeps the rule of every number: not negative.
    ...(minimum !== undefined || exclusiveMinimum === undefined ? { minimum: minimum ?? 0 } : {}),
    ...(exclusiveMinimum !== undefined ? { exclusiveMinimum } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
  };
}
