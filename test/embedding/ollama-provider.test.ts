// The ollama provider against a fake Ollama on 127.0.0.1: batching, vectors, dimension probe,
// retries (429 with Retry-After, 5xx, dropped connections), timeouts, concurrency limit,
// legacy /api/embeddings fallback and one-line failures.
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type RagConfig } from "../../core/config/defaults.js";
import { createOllamaProvider } from "../../core/embedding/ollama.js";
import { RemoteServiceError } from "../../core/embedding/http.js";
import { fakeEmbedding } from "../fakes/fake-embedding.js";
import { startFakeOllama } from "../fakes/ollama.js";
import { closedPort, type FakeHttpServer } from "../fakes/http-fake.js";

let server: FakeHttpServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function config(overrides: Partial<RagConfig["embedding"]>): RagConfig["embedding"] {
  return { ...structuredClone(DEFAULT_CONFIG.embedding), provider: "ollama", model: "nomic-embed-text", retryBaseMs: 5, ...overrides };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

describe("ollama embedding provider", () => {
  it("embeds in batches of batchSize, in order, L2-normalised, with task prefixes", async () => {
    server = await startFakeOllama();
    const provider = createOllamaProvider(config({ baseUrl: server.url, batchSize: 3 }));
    const texts = ["parse the config file", "open a socket", "sort numbers", "read the manifest", "hash the content", "walk files", "log errors"];
    const vectors = await provider.embed(texts, "document");

    const calls = server.requestsTo("/api/embed");
    expect(calls.map((c) => c.body.input.length)).toEqual([3, 3, 1]);
    expect(calls[0].body.model).toBe("nomic-embed-text");
    expect(calls[0].body.input[0]).toBe("search_document: parse the config file");
    expect(vectors).toHaveLength(7);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    // Order preserved: each vector is the normalised fake embedding of its own (prefixed) text.
    const expected = fakeEmbedding("search_document: sort numbers", 64);
    const norm = Math.hypot(...expected);
    expect(vectors[2][5]).toBeCloseTo(expected[5] / norm, 5);

    const [query] = await provider.embed(["parse config"], "query");
    expect(server.requestsTo("/api/embed").at(-1)!.body.input[0]).toBe("search_query: parse config");
    expect(cosine(query, vectors[0])).toBeGreaterThan(cosine(query, vectors[2]));
  });

  it("probes the dimension once and reports provider and model", async () => {
    server = await startFakeOllama({ models: { "all-minilm": 24 } });
    const provider = createOllamaProvider(config({ baseUrl: server.url, model: "all-minilm" }));
    expect(provider.provider).toBe("ollama");
    expect(provider.model).toBe("all-minilm");
    expect(await provider.dimension()).toBe(24);
    expect(await provider.dimension()).toBe(24);
    expect(server.requestsTo("/api/embed")).toHaveLength(1);
  });

  it("uses nomic-embed-text when the model is still the bundled local default", async () => {
    server = await startFakeOllama();
    const provider = createOllamaProvider(config({ baseUrl: server.url, model: DEFAULT_CONFIG.embedding.model }));
    expect(provider.model).toBe("nomic-embed-text");
    expect(await provider.dimension()).toBe(64);
  });

  it("honours Retry-After on 429 and retries 5xx and dropped connections", async () => {
    server = await startFakeOllama();
    server.failNext(
      { status: 429, headers: { "retry-after": "0" }, body: { error: "too many requests" } },
      { status: 503, body: { error: "server busy" } },
      { drop: true },
    );
    const provider = createOllamaProvider(config({ baseUrl: server.url, maxRetries: 3 }));
    const [v] = await provider.embed(["hello world"], "document");
    expect(v.length).toBe(64);
    expect(server.requestsTo("/api/embed")).toHaveLength(4);
  });

  it("waits as long as Retry-After says (seconds), not the shorter backoff", async () => {
    server = await startFakeOllama();
    server.failNext({ status: 429, headers: { "retry-after": "1" }, body: { error: "slow down" } });
    const waits: string[] = [];
    const logger = { debug: (m: string) => waits.push(m), info() {}, error() {} };
    const provider = createOllamaProvider(config({ baseUrl: server.url, maxRetries: 1, retryBaseMs: 1 }), { logger });
    await provider.embed(["x y"], "document");
    expect(waits).toEqual(["Ollama: retrying in 1000 ms"]);
    expect(server.requestsTo("/api/embed")).toHaveLength(2);
  });

  it("gives up after maxRetries with one line naming the status and server message", async () => {
    server = await startFakeOllama();
    server.failNext(...Array.from({ length: 3 }, () => ({ status: 500, body: { error: "CUDA out of memory" } })));
    const provider = createOllamaProvider(config({ baseUrl: server.url, maxRetries: 2 }));
    const err = await provider.embed(["a b"], "document").catch((e) => e);
    expect(err).toBeInstanceOf(RemoteServiceError);
    expect(err.message).toBe(`Ollama at ${server.url} answered 500: CUDA out of memory (gave up after 3 attempts)`);
    expect(server.requestsTo("/api/embed")).toHaveLength(3);
  });

  it("times out a slow answer with advice to raise embedding.timeoutMs", async () => {
    server = await startFakeOllama();
    server.failNext({ delayMs: 1000 }, { delayMs: 1000 });
    const provider = createOllamaProvider(config({ baseUrl: server.url, timeoutMs: 100, maxRetries: 1 }));
    const err = await provider.embed(["a b"], "document").catch((e) => e);
    expect(err.message).toBe(
      `Ollama at ${server.url} did not answer within 100 ms: raise embedding.timeoutMs or check the server (gave up after 2 attempts)`,
    );
  });

  it("waits as long as it takes when timeoutMs is 0", async () => {
    server = await startFakeOllama();
    server.failNext({ delayMs: 300 });
    const provider = createOllamaProvider(config({ baseUrl: server.url, timeoutMs: 0, maxRetries: 0 }));
    expect((await provider.embed(["slow start"], "document"))[0].length).toBe(64);
  });

  it("recovers when a slow answer is followed by a fast one", async () => {
    server = await startFakeOllama();
    server.failNext({ delayMs: 1000 });
    const provider = createOllamaProvider(config({ baseUrl: server.url, timeoutMs: 150, maxRetries: 1 }));
    const [v] = await provider.embed(["a b"], "document");
    expect(v.length).toBe(64);
  });

  it("never has more than `concurrency` requests in flight", async () => {
    server = await startFakeOllama();
    server.latencyMs = 40;
    const provider = createOllamaProvider(config({ baseUrl: server.url, batchSize: 2, concurrency: 3 }));
    const texts = Array.from({ length: 20 }, (_, i) => `text number ${i}`);
    const vectors = await provider.embed(texts, "document");
    expect(vectors).toHaveLength(20);
    expect(server.requestsTo("/api/embed")).toHaveLength(10);
    expect(server.maxInFlight).toBe(3);
  });

  it("fails with one clear line when Ollama is not running", async () => {
    const port = await closedPort();
    const provider = createOllamaProvider(config({ baseUrl: `http://127.0.0.1:${port}` }));
    const err = await provider.dimension().catch((e) => e);
    expect(err).toBeInstanceOf(RemoteServiceError);
    expect(err.message).toBe(
      `cannot reach Ollama at http://127.0.0.1:${port} (connection refused): start it with "ollama serve" or set embedding.baseUrl`,
    );
    expect(err.message).not.toContain("\n");
  });

  it("explains a port that fetch refuses instead of retrying it", async () => {
    const provider = createOllamaProvider(config({ baseUrl: "http://127.0.0.1:9", maxRetries: 3 }));
    await expect(provider.dimension()).rejects.toThrow(
      "cannot reach Ollama at http://127.0.0.1:9: fetch refuses to connect to that port; use another port",
    );
  });

  it("tells the user to pull a model the server does not have", async () => {
    server = await startFakeOllama();
    const provider = createOllamaProvider(config({ baseUrl: server.url, model: "mxbai-embed-large" }));
    const err = await provider.dimension().catch((e) => e);
    expect(err.message).toBe(
      `Ollama at ${server.url} answered 404: model "mxbai-embed-large" not found, try pulling it first; run "ollama pull mxbai-embed-large" or set embedding.model`,
    );
    expect(server.requestsTo("/api/embed")).toHaveLength(1);
  });

  it("falls back to /api/embeddings on servers older than 0.3", async () => {
    server = await startFakeOllama({ legacyOnly: true });
    const provider = createOllamaProvider(config({ baseUrl: `${server.url}/api/`, batchSize: 10 }));
    const vectors = await provider.embed(["one fish", "two fish", "red fish"], "document");
    expect(vectors).toHaveLength(3);
    expect(server.requestsTo("/api/embeddings").map((r) => r.body.prompt)).toEqual([
      "search_document: one fish",
      "search_document: two fish",
      "search_document: red fish",
    ]);
    await provider.embed(["blue fish"], "document");
    expect(server.requestsTo("/api/embed")).toHaveLength(1);
  });

  it("accepts the /v1 URL OpenCode's provider configs use for Ollama", async () => {
    server = await startFakeOllama();
    const provider = createOllamaProvider(config({ baseUrl: `${server.url}/v1/` }));
    expect(await provider.dimension()).toBe(64);
    expect(server.requests.map((r) => r.path)).toEqual(["/api/embed"]);
  });

  it("names embedding.baseUrl when it is not an http(s) URL", () => {
    expect(() => createOllamaProvider(config({ baseUrl: "localhost:11434" }))).toThrow(
      'invalid embedding.baseUrl "localhost:11434" for Ollama: use an http:// or https:// URL',
    );
  });

  it("rejects a server that returns the wrong number of vectors", async () => {
    server = await startFakeOllama();
    server.failNext({ status: 200, body: { model: "nomic-embed-text", embeddings: [[1, 2, 3]] } });
    const provider = createOllamaProvider(config({ baseUrl: server.url, batchSize: 8 }));
    const err = await provider.embed(["a", "b"], "document").catch((e) => e);
    expect(err.message).toMatch(/returned 1 vectors for 2 inputs/);
  });
});
