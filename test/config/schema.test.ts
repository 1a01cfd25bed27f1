// The JSON Schema the package ships for the config file says what the validator says: every key
// of the defaults with its type, an unknown key refused as unknown, and the same verdict on
// every config below, good or bad. An editor using it flags what `opencode-rag` would refuse.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, ENUM_KEYS } from "../../core/config/defaults.js";
import { CONFIG_SCHEMA_FILE, configSchema, type JsonSchema } from "../../core/config/schema.js";
import { validateConfig } from "../../core/config/validate.js";
// @ts-expect-error: the build script is plain JavaScript
import { configKeyDocs, configSchemaText } from "../../esbuild.config.mjs";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

let shipped: JsonSchema;
let check: ((config: unknown) => boolean) & { errors?: ErrorObject[] | null };

beforeAll(() => {
  ensureBuilt();
  shipped = JSON.parse(readFileSync(join(repoRoot, "dist", CONFIG_SCHEMA_FILE), "utf8"));
  check = new Ajv({ strict: true, allErrors: true }).compile(shipped);
});

type Plain = Record<string, unknown>;

/** Every key of the defaults as [dotted path, default value], sections included. */
function keys(obj: Plain, prefix = ""): Array<[string, unknown]> {
  return Object.entries(obj).flatMap(([k, v]): Array<[string, unknown]> => {
    const path = prefix ? `${prefix}.${k}` : k;
    const nested = v !== null && typeof v === "object" && !Array.isArray(v) && path !== "chunking.nodeTypes" && path !== "vectorStore.storageOptions";
    return [[path, v], ...(nested ? keys(v as Plain, path) : [])];
  });
}

/** `{ a: { b: value } }` for "a.b". */
function at(path: string, value: unknown): Plain {
  return path.split(".").reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Plain;
}

function schemaAt(path: string): JsonSchema {
  return path.split(".").reduce<JsonSchema>((s, key) => (s.properties as Record<string, JsonSchema>)[key], shipped);
}

/** A value of another JSON type than the default's. */
function wrongType(def: unknown): unknown {
  if (Array.isArray(def)) return { not: "a list" };
  if (def !== null && typeof def === "object") return ["not", "an object"];
  if (typeof def === "string") return 5;
  return "text";
}

function bothSay(config: unknown): { validator: boolean; schema: boolean } {
  return { validator: validateConfig(config).length === 0, schema: check(config) };
}

describe("the config's JSON Schema", () => {
  it("ships in dist/ as the build writes it from the defaults and their doc comments", async () => {
    const { file, text } = await configSchemaText();
    expect(file).toBe(CONFIG_SCHEMA_FILE);
    expect(readFileSync(join(repoRoot, "dist", file), "utf8")).toBe(text);
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
    expect(pkg.exports["./config.schema.json"]).toBe(`./dist/${CONFIG_SCHEMA_FILE}`);
    expect(pkg.files).toContain("dist");
    // Without descriptions it is the schema the source derives: the file is nothing else.
    const strip = (s: unknown): unknown =>
      Array.isArray(s) ? s.map(strip) : s && typeof s === "object" ? Object.fromEntries(Object.entries(s).filter(([k]) => k !== "description").map(([k, v]) => [k, strip(v)])) : s;
    expect(strip(shipped)).toEqual(strip(configSchema()));
  });

  it("names every key of the defaults with its type and default", () => {
    const all = keys(DEFAULT_CONFIG as unknown as Plain);
    expect(all.length).toBeGreaterThan(100);
    for (const [path, def] of all) {
      const s = schemaAt(path);
      expect(s, path).toBeDefined();
      const type = Array.isArray(def) ? "array" : typeof def === "object" ? "object" : typeof def;
      if (type === "number") expect(["number", "integer"], path).toContain(s.type);
      else expect(s.type, path).toBe(type);
      if (type !== "object" || path === "chunking.nodeTypes" || path === "vectorStore.storageOptions") expect(s.default, path).toEqual(def);
    }
    for (const [path, allowed] of Object.entries(ENUM_KEYS)) expect(schemaAt(path).enum, path).toEqual(allowed);
  });

  it("describes each key by its doc comment in defaults.ts", async () => {
    const docs: Record<string, string> = await configKeyDocs();
    expect(Object.keys(docs).length).toBeGreaterThan(30);
    for (const [path, text] of Object.entries(docs)) expect(schemaAt(path).description, path).toBe(text);
    expect(schemaAt("embedding.provider").description).toMatch(/keyword-only/);
    expect(schemaAt("indexing.maxCpuShare").description).toMatch(/^Share of the cores a background pass .* uses every core\.$/);
  });

  it("refuses an unknown key as unknown, at the top and in every section, as the validator does", () => {
    const sections = [["", DEFAULT_CONFIG], ...keys(DEFAULT_CONFIG as unknown as Plain)].filter(
      ([path, v]) => v !== null && typeof v === "object" && !Array.isArray(v) && path !== "chunking.nodeTypes" && path !== "vectorStore.storageOptions",
    ) as Array<[string, Plain]>;
    expect(sections.length).toBeGreaterThan(10);
    for (const [path] of sections) {
      const config = path ? at(path, { topk: 3 }) : { topk: 3 };
      expect(validateConfig(config).join("\n"), path).toMatch(/unknown key "(.+\.)?topk"/);
      expect(check(config), path).toBe(false);
      expect(check.errors?.some((e) => e.keyword === "additionalProperties" && e.params.additionalProperty === "topk"), path).toBe(true);
    }
  });

  it("accepts \"$schema\" at the top level only, and only as text", () => {
    const ref = { $schema: "./node_modules/opencode-rag/dist/config.schema.json", retrieval: { topK: 5 } };
    expect(bothSay(ref)).toEqual({ validator: true, schema: true });
    expect(bothSay({ $schema: 5 })).toEqual({ validator: false, schema: false });
    expect(bothSay({ retrieval: { $schema: "x" } })).toEqual({ validator: false, schema: false });
  });

  it("refuses a value of the wrong type for every key, as the validator does", () => {
    for (const [path, def] of keys(DEFAULT_CONFIG as unknown as Plain)) {
      expect(bothSay(at(path, wrongType(def))), path).toEqual({ validator: false, schema: false });
    }
  });

  it("gives the validator's verdict on ranges, enums, maps, lists and chunkers", () => {
    const cases: Array<[unknown, boolean]> = [
      [DEFAULT_CONFIG, true],
      [{}, true],
      [{ embedding: { provider: "none" }, retrieval: { topK: 0, minScore: 0.25 } }, true],
      [{ embedding: { provider: "cohere" } }, false],
      [{ logging: { level: "warn" } }, false],
      [{ retrieval: { topK: -1 } }, false],
      [{ embedding: { threads: 1 } }, true],
      [{ embedding: { threads: 64 } }, true],
      [{ embedding: { threads: 0 } }, false],
      [{ embedding: { threads: 65 } }, false],
      [{ embedding: { threads: 2.5 } }, false],
      [{ indexing: { maxCpuShare: 1 } }, true],
      [{ indexing: { maxCpuShare: 0.01 } }, true],
      [{ indexing: { maxCpuShare: 0 } }, false],
      [{ indexing: { maxCpuShare: 1.5 } }, false],
      [{ vectorStore: { path: "s3://team/idx" } }, true],
      [{ vectorStore: { path: "" } }, false],
      [{ vectorStore: { path: " \t" } }, false],
      [{ vectorStore: { storageOptions: { aws_region: "eu-west-1" } } }, true],
      [{ vectorStore: { storageOptions: { allow_http: true } } }, false],
      [{ chunking: { nodeTypes: { python: ["match_statement"] } } }, true],
      [{ chunking: { nodeTypes: { python: "match_statement" } } }, false],
      [{ chunking: { nodeTypes: { python: [1] } } }, false],
      [{ indexing: { exclude: ["*.gen.ts"] } }, true],
      [{ indexing: { exclude: [3] } }, false],
      [{ chunkers: [{ module: "./x.js", extensions: [".foo"] }] }, true],
      [{ chunkers: [{ module: "./x.js" }] }, true],
      [{ chunkers: [{ extensions: [".foo"] }] }, false],
      [{ chunkers: [{ module: "./x.js", extensions: ".foo" }] }, false],
      [{ chunkers: ["./x.js"] }, false],
      [{ memory: { decay: { halfLifeDays: 7 } } }, true],
      [{ memory: { decay: { halfLife: 7 } } }, false],
      [{ openCode: { autoInject: "yes" } }, false],
      [{ retrieval: null }, false],
      [[], false],
    ];
    for (const [config, ok] of cases) expect(bothSay(config), JSON.stringify(config)).toEqual({ validator: ok, schema: ok });
  });
});
