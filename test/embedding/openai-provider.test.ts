// The openai provider against a fake OpenAI-compatible server: wire format, batching, auth,
// retry-after-ms, `dimensions`, proxying through embedding.proxy.url, one-line failures.
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type RagConfig } from "../../core/config/defaults.js";
import { createOpenAIProvider } from "../../core/embedding/openai.js";
import { parseRetryAfter, RemoteServiceError } from "../../core/embedding/http.js";
import { startFakeOpenAI } from "../fakes/openai.js";
import { startFakeProxy, type FakeProxy } from "../fakes/proxy.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";

let server: FakeHttpServer | null = null;
let proxy: FakeProxy | null = null;
afterEach(async () => {
  await server?.close();
  await proxy?.close();
  server = proxy = null;
});

// No key from the developer's machine may leak into these tests.
const noEnv = { HOME: "/nonexistent-home", XDG_CONFIG_HOME: "/nonexistent-config", XDG_DATA_HOME: "/nonexistent-data" };

function config(overrides: Partial<RagConfig["embedding"]>): RagConfig["embedding"] {
  return { ...structuredClone(DEFAULT_CONFIG.embedding), provider: "openai", model: "text-embedding-3-small", retryBaseMs: 5, ...overrides };
}

describe("openai embedding provider", () => {
  it("posts batches to /embeddings with the bearer key and returns normalised vectors in order", async () => {
    server = await startFakeOpenAI({ apiKey: "sk-test-123" });
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1`, apiKey: "sk-test-123", batchSize: 2 }), {
      root: "/nonexistent",
      env: noEnv,
    });
    const vectors = await provider.embed(["alpha beta", "", "gamma delta", "epsilon"], "document");
    const calls = server.requestsTo("/v1/embeddings");
    expect(calls.map((c) => c.body.input)).toEqual([["alpha beta", " "], ["gamma delta", "epsilon"]]);
    expect(calls[0].body).toMatchObject({ model: "text-embedding-3-small", encoding_format: "float" });
    expect(calls[0].headers.authorization).toBe("Bearer sk-test-123");
    expect(vectors.map((v) => v.length)).toEqual([48, 48, 48, 48]);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(await provider.dimension()).toBe(48);
    expect(provider.model).toBe("text-embedding-3-small");
  });

  it("asks for embedding.dimensions when set", async () => {
    server = await startFakeOpenAI();
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1`, dimensions: 16 }), { env: noEnv });
    expect(await provider.dimension()).toBe(16);
    expect(server.requestsTo("/v1/embeddings")[0].body.dimensions).toBe(16);
  });

  it("keeps a query string of the base URL (Azure's api-version) after the path", async () => {
    server = await startFakeOpenAI();
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1/?api-version=2024-02-01` }), { env: noEnv });
    expect(await provider.dimension()).toBe(48);
    const [call] = server.requestsTo("/v1/embeddings");
    expect(call.query).toBe("?api-version=2024-02-01");
  });

  it("reorders data by index when a gateway shuffles it", async () => {
    server = await startFakeOpenAI();
    server.failNext({
      status: 200,
      body: { object: "list", data: [{ index: 1, embedding: [0, 2] }, { index: 0, embedding: [3, 0] }], model: "m" },
    });
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1` }), { env: noEnv });
    const [first, second] = await provider.embed(["a", "b"], "document");
    expect(Array.from(first)).toEqual([1, 0]);
    expect(Array.from(second)).toEqual([0, 1]);
  });

  it("says which key to fix on 401, without retrying", async () => {
    server = await startFakeOpenAI({ apiKey: "sk-right" });
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1`, apiKey: "sk-wrong" }), { env: noEnv });
    const err = await provider.dimension().catch((e) => e);
    expect(err).toBeInstanceOf(RemoteServiceError);
    expect(err.message).toMatch(/^the OpenAI-compatible API at http:\/\/127\.0\.0\.1:\d+\/v1 answered 401: Incorrect API key provided: sk-\*\*\*\*\..*; check embedding\.apiKey \(or env OPENAI_API_KEY\)$/);
    expect(server.requestsTo("/v1/embeddings")).toHaveLength(1);
  });

  it("refuses to start against api.openai.com without any key", () => {
    expect(() => createOpenAIProvider(config({ baseUrl: "" }), { root: "/nonexistent", env: noEnv })).toThrow(
      "no API key for https://api.openai.com/v1: set embedding.apiKey, env OPENAI_API_KEY, or provider.openai.options.apiKey in opencode.json",
    );
  });

  it("names the hosted service's own env variable when its key is missing", () => {
    expect(() => createOpenAIProvider(config({ baseUrl: "https://api.groq.com/openai/v1" }), { root: "/nonexistent", env: { ...noEnv, OPENAI_API_KEY: "sk-not-for-groq" } })).toThrow(
      "no API key for https://api.groq.com/openai/v1: set embedding.apiKey, env GROQ_API_KEY, or provider.groq.options.apiKey in opencode.json",
    );
  });

  it("honours retry-after-ms on 429 and retries a dropped connection", async () => {
    server = await startFakeOpenAI();
    server.failNext(
      { status: 429, headers: { "retry-after-ms": "20" }, body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } } },
      { drop: true },
    );
    const waits: string[] = [];
    const logger = { debug: (m: string) => waits.push(m), info() {}, error() {} };
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1`, maxRetries: 2 }), { env: noEnv, logger });
    const [v] = await provider.embed(["hello"], "query");
    expect(v.length).toBe(48);
    expect(waits[0]).toBe("the OpenAI-compatible API: retrying in 20 ms");
    expect(server.requestsTo("/v1/embeddings")).toHaveLength(3);
  });

  it("says the base URL is wrong when a web page answers instead of the API", async () => {
    server = await startFakeOpenAI();
    server.failNext({ status: 200, body: "<!doctype html><html><body>Welcome to nginx!</body></html>" });
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1` }), { env: noEnv });
    await expect(provider.dimension()).rejects.toThrow(
      `the OpenAI-compatible API at ${server.url}/v1 sent a response that is not JSON (<!doctype html><html><body>Welcome to nginx!</body></html>): check that embedding.baseUrl points at the API`,
    );
  });

  it("reports a model the server does not have with advice", async () => {
    server = await startFakeOpenAI();
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1`, model: "text-embedding-4-huge" }), { env: noEnv });
    const err = await provider.dimension().catch((e) => e);
    expect(err.message).toContain("answered 404: The model `text-embedding-4-huge` does not exist");
    expect(err.message).toContain("check embedding.model");
  });

  it("goes through embedding.proxy.url when set", async () => {
    server = await startFakeOpenAI();
    proxy = await startFakeProxy();
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1`, proxy: { url: proxy.url } }), { env: noEnv });
    expect(await provider.dimension()).toBe(48);
    expect(proxy.targets).toEqual([new URL(server.url).host]);
    await provider.close?.();
  });

  it("rejects a malformed proxy URL with one line", async () => {
    server = await startFakeOpenAI();
    const provider = createOpenAIProvider(config({ baseUrl: `${server.url}/v1`, proxy: { url: "proxy.local:3128" } }), { env: noEnv });
    await expect(provider.dimension()).rejects.toThrow(
      'invalid embedding.proxy.url "proxy.local:3128": use http://host:port (or leave it empty for a direct connection)',
    );
  });
});

describe("Retry-After parsing", () => {
  it("reads seconds, HTTP dates and retry-after-ms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5000);
    expect(parseRetryAfter(new Headers({ "retry-after": "2", "retry-after-ms": "150" }), now)).toBe(150);
    expect(parseRetryAfter(new Headers({}), now)).toBeNull();
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeNull();
  });
});
