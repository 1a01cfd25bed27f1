// The local provider on the model that ships in models/ (computed from its table, checked
// against transformers.js), offline. A Hugging Face id (run by transformers.js on
// onnxruntime-node) is exercised against a fake hub on 127.0.0.1.
import { createServer, type Server } from "node:http";
import { cpSync, mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env, pipeline } from "@huggingface/transformers";
import { BUNDLED_MODEL_ID, DEFAULT_CONFIG, type RagConfig } from "../../core/config/defaults.js";
import { createEmbeddingProvider } from "../../core/embedding/index.js";
import { lengthBoundedBatches } from "../../core/embedding/local.js";
import { preprocessForEmbedding } from "../../core/embedding/preprocess.js";
import { modelsDir } from "../../core/paths.js";
import type { EmbeddingProvider } from "../../core/types.js";

const bundledDir = join(modelsDir(), BUNDLED_MODEL_ID);
const bundledDim = JSON.parse(readFileSync(join(bundledDir, "config.json"), "utf8")).hidden_size as number;

function configWith(embedding: Partial<RagConfig["embedding"]>): RagConfig {
  return { ...DEFAULT_CONFIG, embedding: { ...DEFAULT_CONFIG.embedding, ...embedding } };
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

// Any fetch during these tests would be a network call the product promised not to make.
// transformers.js fetches through env.fetch (and Node code could use globalThis.fetch): watch both.
const realFetch = globalThis.fetch;
const realEnvFetch = env.fetch;
let fetchCalls: string[] = [];
beforeAll(() => {
  const spy = (inner: typeof fetch) =>
    (async (input: RequestInfo | URL, init?: RequestInit) => {
      fetchCalls.push(String(input));
      return inner(input, init);
    }) as typeof fetch;
  globalThis.fetch = spy(realFetch);
  env.fetch = spy(realEnvFetch as typeof fetch) as typeof env.fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
  env.fetch = realEnvFetch;
});

describe("local provider with the bundled model", () => {
  let provider: EmbeddingProvider;
  const root = mkdtempSync(join(tmpdir(), "rag-local-"));

  beforeAll(async () => {
    fetchCalls = [];
    const res = await createEmbeddingProvider(configWith({}), { root });
    expect(res.reason).toBeNull();
    provider = res.provider!;
  });
  afterAll(async () => {
    await provider?.close?.();
    rmSync(root, { recursive: true, force: true });
  });

  it("loads offline, with no network call", () => {
    expect(provider.provider).toBe("local");
    expect(provider.model).toBe(BUNDLED_MODEL_ID);
    expect(fetchCalls).toEqual([]);
  });

  it("returns one L2-normalised vector of the model's dimension per text, in order", async () => {
    const texts = ["function add(a, b) { return a + b; }", "x", "class UserRepository { findById(id) {} }"];
    const vectors = await provider.embed(texts, "document");
    expect(await provider.dimension()).toBe(bundledDim);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(bundledDim);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 4);
    }
    // batching sorts by length internally; results must still line up with the input
    const alone = await provider.embed([texts[2]], "document");
    expect(dot(alone[0], vectors[2])).toBeCloseTo(1, 5);
    expect(dot(vectors[0], vectors[2])).toBeLessThan(0.99);
  });

  it("places a query closer to the code it describes than to unrelated code", async () => {
    const [query, readJson, distance, http] = await provider.embed(
      [
        "read a json file from disk and parse it",
        "export function loadJsonFile(path) {\n  const text = fs.readFileSync(path, 'utf8');\n  return JSON.parse(text);\n}",
        "export function euclideanDistance(a, b) {\n  let sum = 0;\n  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;\n  return Math.sqrt(sum);\n}",
        "def send_request(url, headers):\n    response = http_client.post(url, headers=headers)\n    return response.status_code",
      ],
      "query",
    );
    expect(dot(query, readJson)).toBeGreaterThan(dot(query, distance));
    expect(dot(query, readJson)).toBeGreaterThan(dot(query, http));
  });

  it("treats split identifiers and prose alike (preprocessing applied)", async () => {
    const [ident, prose, other] = await provider.embed(["getUserById", "get user by id", "matrix determinant"], "query");
    expect(dot(ident, prose)).toBeGreaterThan(dot(ident, other));
  });

  it("gives the vectors transformers.js's own feature-extraction pipeline gives", async () => {
    // the provider pools inside the graph and tokenizes on a fast path; the standard route
    // (tokenizer + last_hidden_state + mean pooling + normalisation) must agree with it
    env.allowRemoteModels = false;
    env.localModelPath = modelsDir() + "/";
    const fe = await pipeline("feature-extraction", BUNDLED_MODEL_ID, { dtype: "fp32" });
    const texts = ["const maxRetryCount = 5;", "def read_config(path):\n    return yaml.safe_load(open(path))", "Größe berechnen"];
    const ours = await provider.embed(texts, "document");
    const theirs = await fe(texts.map((t) => preprocessForEmbedding(t)), { pooling: "mean", normalize: true });
    const dim = theirs.dims[1];
    texts.forEach((_, i) => {
      const ref = (theirs.data as Float32Array).slice(i * dim, (i + 1) * dim);
      expect(dot(ours[i], ref)).toBeCloseTo(1, 5);
    });
  });

  it("embeds many texts of mixed lengths, split into bounded batches, as it embeds each alone", async () => {
    const unit = "export function parseConfigFile(path) { return JSON.parse(read(path)); }\n";
    // 70 texts from 70 to ~7,000 characters: more than one batch by count and by size
    const texts = Array.from({ length: 70 }, (_, i) => unit.repeat(1 + ((i * 37) % 97)) + `const marker${i} = ${i};`);
    const together = await provider.embed(texts, "document");
    for (const i of [0, 13, 42, 69]) {
      const [alone] = await provider.embed([texts[i]], "document");
      expect(dot(alone, together[i])).toBeCloseTo(1, 5);
    }
  });

  it("embeds an empty batch and a text with no words without failing", async () => {
    expect(await provider.embed([], "document")).toEqual([]);
    const [v] = await provider.embed(["{}();"], "document");
    expect(v.length).toBe(bundledDim);
    expect(v.every((x) => Number.isFinite(x))).toBe(true);
  });
});

describe("local model start-up", () => {
  it("starts the runtime only at the first embed; a model that then fails to load says so in one line", async () => {
    // A copy of the bundled model whose weights are damaged: config and tokenizer are fine.
    const dir = mkdtempSync(join(tmpdir(), "rag-broken-model-"));
    try {
      cpSync(bundledDir, dir, { recursive: true });
      writeFileSync(join(dir, "onnx", "model.onnx"), "not an onnx graph");
      const res = await createEmbeddingProvider(configWith({ model: dir }), { root: tmpdir() });
      expect(res.reason).toBeNull();
      // what a pass needs before embedding anything comes from config.json alone
      expect(await res.provider!.dimension()).toBe(bundledDim);
      const err = await res.provider!.embed(["function add(a, b) {}"], "document").catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/could not be loaded .*check the model folder's config\.json, tokenizer\.json and onnx\/model\.onnx/);
      expect((err as Error).message.split("\n")).toHaveLength(1);
      await res.provider!.close?.();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("embedding batches", () => {
  it("bound both the count and the padded size (texts x longest), keeping the given order", () => {
    const lengths = [10, 10, 20, 30, 30, 30, 100, 500, 5000];
    const order = lengths.map((_, i) => i);
    const batches = lengthBoundedBatches(order, (i) => lengths[i], 4, 100);
    expect(batches.flat()).toEqual(order);
    for (const b of batches) {
      expect(b.length).toBeLessThanOrEqual(4);
      // a text longer than the budget goes alone
      if (b.length > 1) expect(b.length * Math.max(...b.map((i) => lengths[i]))).toBeLessThanOrEqual(100);
    }
    expect(batches).toEqual([[0, 1, 2], [3, 4, 5], [6], [7], [8]]);
    expect(lengthBoundedBatches(order, () => 1, 4, 100).map((b) => b.length)).toEqual([4, 4, 1]);
  });
});

describe("local provider model resolution", () => {
  it("accepts the model as an absolute folder", async () => {
    const res = await createEmbeddingProvider(configWith({ model: bundledDir }), { root: tmpdir() });
    expect(res.reason).toBeNull();
    expect(await res.provider!.dimension()).toBe(bundledDim);
  });

  it("explains a missing model in one line and returns no provider", async () => {
    const res = await createEmbeddingProvider(configWith({ model: "./no-such-model" }), { root: tmpdir() });
    expect(res.provider).toBeNull();
    expect(res.reason).toMatch(/no-such-model/);
    expect(res.reason).toMatch(/keyword-only/);
    expect(res.reason).not.toMatch(/\n/);
  });

  it("reports an unknown provider name instead of failing", async () => {
    const res = await createEmbeddingProvider(configWith({ provider: "nope" as never }), { root: tmpdir() });
    expect(res.provider).toBeNull();
    expect(res.reason).toMatch(/embedding\.provider/);
  });
});

describe("local provider with a Hugging Face id", () => {
  // A fake hub on 127.0.0.1 serving the bundled model's files at {model}/resolve/main/{file}.
  let server: Server;
  let requests: string[] = [];
  let hubUp = true;
  const savedHost = env.remoteHost;
  const root = mkdtempSync(join(tmpdir(), "rag-hub-"));

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? "");
      const m = (req.url ?? "").match(/^\/acme\/code-embedder\/resolve\/main\/(.+)$/);
      const file = m ? join(bundledDir, decodeURIComponent(m[1])) : "";
      if (!hubUp || !m || !existsSync(file)) {
        res.writeHead(404).end("not found");
        return;
      }
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    env.remoteHost = `http://127.0.0.1:${port}/`;
  });
  afterAll(async () => {
    env.remoteHost = savedHost;
    await new Promise((r) => server.close(r));
    rmSync(root, { recursive: true, force: true });
  });

  it("gives a clear reason when the id cannot be downloaded", async () => {
    const res = await createEmbeddingProvider(configWith({ model: "acme/missing-model" }), { root });
    expect(res.provider).toBeNull();
    expect(res.reason).toMatch(/acme\/missing-model/);
    expect(res.reason).toMatch(/download/);
  });

  it("downloads once into embedding.cacheDir, then works with the hub gone", async () => {
    const cfg = configWith({ model: "acme/code-embedder", cacheDir: "models-cache" });
    fetchCalls = [];
    const first = await createEmbeddingProvider(cfg, { root });
    expect(first.reason).toBeNull();
    expect(requests.some((u) => u.endsWith("onnx/model.onnx"))).toBe(true);
    // the spy sees transformers.js downloads, so its silence in the offline tests means something
    expect(fetchCalls.length).toBeGreaterThan(0);
    expect(existsSync(join(root, "models-cache", "acme", "code-embedder", "config.json"))).toBe(true);
    const [a] = await first.provider!.embed(["parse a json file"], "query");

    hubUp = false;
    requests = [];
    const second = await createEmbeddingProvider(cfg, { root });
    expect(second.reason).toBeNull();
    expect(requests).toEqual([]);
    const [b] = await second.provider!.embed(["parse a json file"], "query");
    expect(dot(a, b)).toBeCloseTo(1, 5);
  });
});
