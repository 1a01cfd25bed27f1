// End to end through the Engine with each remote provider (fake servers on 127.0.0.1): index a
// workspace, search it, switch providers (rebuild, never mixed vectors), survive a provider
// that is down (one line, index kept), resume a failed pass without re-embedding finished
// chunks, and index LLM descriptions and image descriptions.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { closeDescribers } from "../../core/description/index.js";
import { startFakeOllama } from "../fakes/ollama.js";
import { startFakeOpenAI } from "../fakes/openai.js";
import { closedPort, type FakeHttpServer } from "../fakes/http-fake.js";

const FIXTURE_REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "repo");

let ollama: FakeHttpServer;
let openai: FakeHttpServer;
let root: string;
const engines: Engine[] = [];

/** A small workspace with known content (plus the shared fixture repo when present). */
function makeWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "rag-remote-"));
  if (existsSync(FIXTURE_REPO)) cpSync(FIXTURE_REPO, join(dir, "fixture"), { recursive: true });
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  write(
    "src/tokens.ts",
    `// Session tokens.\nexport function verifySessionToken(token: string, secret: string): boolean {\n  const [payload, signature] = token.split(".");\n  return signature === hmacSha256(payload, secret);\n}\n\nfunction hmacSha256(data: string, key: string): string {\n  return data + key;\n}\n`,
  );
  write(
    "src/weather.py",
    `class WeatherStation:\n    """Collects temperature readings from a station."""\n\n    def __init__(self):\n        self.readings = []\n\n    def record_temperature(self, celsius):\n        self.readings.append(celsius)\n\n    def average_temperature(self):\n        return sum(self.readings) / len(self.readings)\n`,
  );
  write("docs/deploy.md", `# Deployment\n\nBuild the container image, push it to the registry and roll out the kubernetes deployment.\n`);
  return dir;
}

function overrides(provider: "ollama" | "openai", extra: Record<string, unknown> = {}) {
  const embedding =
    provider === "ollama"
      ? { provider, model: "nomic-embed-text", baseUrl: ollama.url }
      : { provider, model: "text-embedding-3-small", baseUrl: `${openai.url}/v1`, apiKey: "sk-fake" };
  return {
    embedding: { ...embedding, retryBaseMs: 5, maxRetries: 1, timeoutMs: 5000, batchSize: 4 },
    vectorStore: { path: join(root, ".opencode", "rag_db") },
    autoIndex: { enabled: false },
    logging: { level: "error" },
    ...extra,
  };
}

async function open(provider: "ollama" | "openai", extra: Record<string, unknown> = {}): Promise<Engine> {
  const engine = await openEngine({ root, overrides: overrides(provider, extra) });
  engines.push(engine);
  return engine;
}

beforeAll(async () => {
  ollama = await startFakeOllama();
  openai = await startFakeOpenAI({ apiKey: "sk-fake" });
});
afterAll(async () => {
  await ollama.close();
  await openai.close();
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  await closeDescribers();
  rmSync(root, { recursive: true, force: true });
});

describe("indexing through remote providers", () => {
  for (const provider of ["ollama", "openai"] as const) {
    it(`indexes and searches through ${provider}, recording provider/model/dimension`, async () => {
      root = makeWorkspace();
      const engine = await open(provider);
      const summary = await engine.index();
      expect(summary.errors).toEqual([]);
      expect(summary.chunksEmbedded).toBeGreaterThan(0);

      const status = await engine.status();
      expect(status.provider).toBe(provider);
      expect(status.model).toBe(provider === "ollama" ? "nomic-embed-text" : "text-embedding-3-small");
      expect(status.dimension).toBe(provider === "ollama" ? 64 : 48);
      expect(status.keywordOnlyReason).toBeNull();

      const hits = await engine.search("verify the session token signature", { mode: "vector", topK: 3 });
      expect(hits[0].chunk.filePath).toBe("src/tokens.ts");
      const weather = await engine.search("average temperature of the weather station", { topK: 3 });
      expect(weather[0].chunk.filePath).toBe("src/weather.py");
      if (existsSync(FIXTURE_REPO)) {
        const parcel = await engine.search("shipping cost of a parcel by weight", { mode: "vector", topK: 3 });
        expect(parcel[0].chunk.filePath).toBe("fixture/scripts/shipping.go");
      }
    });
  }

  it("sends a remote embedder the search query with its secrets redacted", async () => {
    root = makeWorkspace();
    const engine = await open("openai");
    await engine.index();
    const key = "sk-proj-Lm4Nb7Vc2Xz9Qa1Ws6Ed3Rf8";
    const before = openai.requestsTo("/embeddings").length;
    const hits = await engine.search(`verify the session token signed with ${key}`, { mode: "vector", topK: 3 });
    expect(hits[0].chunk.filePath).toBe("src/tokens.ts");
    const sent = JSON.stringify(openai.requestsTo("/embeddings").slice(before).map((r) => r.body));
    expect(sent).toContain("verify the session token");
    expect(sent).not.toContain(key);
  });

  it("embeds what a request asks for, without its wording", async () => {
    root = makeWorkspace();
    const engine = await open("openai");
    await engine.index();
    const before = openai.requestsTo("/embeddings").length;
    const hits = await engine.search("explain how the session token signature is verified", { topK: 3 });
    expect(hits[0].chunk.filePath).toBe("src/tokens.ts");
    const sent = openai.requestsTo("/embeddings").slice(before).map((r) => JSON.stringify(r.body));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('"how the session token signature is verified"');
  });

  it("keeps `embedding.concurrency` requests in flight while indexing", async () => {
    root = makeWorkspace();
    for (let i = 0; i < 12; i++) writeFileSync(join(root, "src", `part${i}.ts`), `export const part${i} = "value number ${i}";\n`);
    const slow = await startFakeOllama();
    slow.latencyMs = 30;
    try {
      const engine = await openEngine({
        root,
        overrides: { ...overrides("ollama"), embedding: { ...overrides("ollama").embedding, baseUrl: slow.url, batchSize: 2, concurrency: 3 } },
      });
      engines.push(engine);
      await engine.index();
      expect(slow.requestsTo("/api/embed").length).toBeGreaterThan(3);
      expect(slow.maxInFlight).toBe(3);
    } finally {
      await slow.close();
    }
  });

  it("rebuilds when the provider changes, and never mixes vectors", async () => {
    root = makeWorkspace();
    const first = await open("ollama");
    await first.index();
    await first.close();

    const second = await open("openai");
    const summary = await second.index();
    expect(summary.rebuildReason).toMatch(/embedding model changed \(ollama\/nomic-embed-text -> openai\/text-embedding-3-small\)/);
    const status = await second.status();
    expect([status.provider, status.dimension]).toEqual(["openai", 48]);
    const hits = await second.search("verify the session token signature", { mode: "vector", topK: 3 });
    expect(hits[0].chunk.filePath).toBe("src/tokens.ts");
  });

  it("never compares a new model's queries with the old model's vectors, even of the same length: keywords only until the rebuild", async () => {
    root = makeWorkspace();
    const twins = await startFakeOllama({ models: { "model-a": 64, "model-b": 64 } });
    const withModel = (model: string) => overrides("ollama", { embedding: { ...overrides("ollama").embedding, model, baseUrl: twins.url } });
    const queriesEmbedded = () => twins.requestsTo("/api/embed").filter((r) => JSON.stringify(r.body).includes("session token")).length;
    try {
      const first = await openEngine({ root, overrides: withModel("model-a") });
      engines.push(first);
      await first.index();
      await first.close();

      const second = await openEngine({ root, overrides: withModel("model-b") });
      engines.push(second);
      const status = await second.status();
      expect(status.keywordOnlyReason).toBe("the index holds vectors of ollama/model-a, not of ollama/model-b, until the next index pass rebuilds it");
      const before = queriesEmbedded();
      const hits = await second.search("verify the session token signature", { topK: 3 });
      expect(hits[0].chunk.filePath).toBe("src/tokens.ts"); // found by its words
      expect(queriesEmbedded()).toBe(before); // the query was not embedded for vectors it cannot be compared with

      const summary = await second.index();
      expect(summary.rebuildReason).toMatch(/embedding model changed \(ollama\/model-a -> ollama\/model-b\)/);
      expect((await second.status()).keywordOnlyReason).toBeNull();
      const after = await second.search("verify the session token signature", { mode: "vector", topK: 3 });
      expect(after[0].chunk.filePath).toBe("src/tokens.ts");
      expect(queriesEmbedded()).toBe(before + 1);
    } finally {
      await Promise.all(engines.splice(0).map((e) => e.close()));
      await twins.close();
    }
  });

  it("says a keyword-only index gets vectors only when rebuilt", async () => {
    root = makeWorkspace();
    const keywordsOnly = await openEngine({ root, overrides: overrides("ollama", { embedding: { provider: "none" } }) });
    engines.push(keywordsOnly);
    await keywordsOnly.index();
    await keywordsOnly.close();
    const engine = await open("ollama");
    expect((await engine.status()).keywordOnlyReason).toBe("the index was built keyword-only; the next index pass rebuilds it with ollama/nomic-embed-text vectors");
    await engine.index();
    expect((await engine.status()).keywordOnlyReason).toBeNull();
  });

  it("rebuilds when the vector dimension changes under the same model", async () => {
    root = makeWorkspace();
    const first = await open("openai");
    await first.index();
    await first.close();

    const second = await open("openai", { embedding: { ...overrides("openai").embedding, dimensions: 16 } });
    const summary = await second.index();
    expect(summary.rebuildReason).toBe("the embedding dimension changed (48 -> 16)");
    const status = await second.status();
    expect([status.dimension, status.keywordOnlyReason]).toEqual([16, null]);
    expect(openai.requestsTo("/v1/embeddings").at(-1)!.body.dimensions).toBe(16);
  });

  it("fails a pass with one line when the provider is down and keeps the previous index", async () => {
    root = makeWorkspace();
    const engine = await open("openai");
    await engine.index();
    const before = await engine.status();

    writeFileSync(join(root, "src", "new.ts"), "export function retryWithBackoff(attempts: number) {\n  return attempts * 2;\n}\n");
    openai.failNext(...Array.from({ length: 2 }, () => ({ status: 503, body: { error: { message: "upstream unavailable", type: "server_error" } } })));
    const err = await engine.index().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/^the OpenAI-compatible API at http:\/\/127\.0\.0\.1:\d+\/v1 answered 503: upstream unavailable \(gave up after 2 attempts\)$/);

    const after = await engine.status();
    expect(after.chunks).toBe(before.chunks);
    const hits = await engine.search("verify the session token signature", { topK: 3 });
    expect(hits[0].chunk.filePath).toBe("src/tokens.ts");

    // The provider is back: the pass completes and the new file is searchable.
    const summary = await engine.index();
    expect(summary.filesIndexed).toBe(1);
    const retry = await engine.search("retry with backoff attempts", { topK: 3 });
    expect(retry[0].chunk.filePath).toBe("src/new.ts");
  });

  it("answers searches from keywords while the provider is down", async () => {
    root = makeWorkspace();
    const engine = await open("ollama");
    await engine.index();

    // Mid-session outage: the query cannot be embedded.
    ollama.failNext({ status: 503, body: { error: "loading model" } }, { status: 503, body: { error: "loading model" } });
    const during = await engine.search("average temperature of the weather station", { topK: 3 });
    expect(during[0].chunk.filePath).toBe("src/weather.py");

    // A new session while Ollama is not running at all (nothing probed yet).
    const down = { ...overrides("ollama").embedding, model: "", baseUrl: `http://127.0.0.1:${await closedPort()}` };
    const offline = await open("ollama", { embedding: down });
    const hits = await offline.search("verify the session token signature", { topK: 3 });
    expect(hits[0].chunk.filePath).toBe("src/tokens.ts");
    const status = await offline.status();
    expect([status.provider, status.model, status.dimension]).toEqual(["ollama", "nomic-embed-text", 64]);
  });

  it("resumes a failed pass without re-embedding what was finished, keeping the old index meanwhile", async () => {
    root = makeWorkspace();
    const module = (i: number, version: string) =>
      `export function feature${i}Handler(input${i}: string) {\n  return "feature ${i} ${version} " + input${i};\n}\n`;
    for (let i = 0; i < 6; i++) writeFileSync(join(root, "src", `module${i}.ts`), module(i, "first"));
    const engine = await open("ollama", { embedding: { ...overrides("ollama").embedding, batchSize: 2, concurrency: 1 } });
    await engine.index();
    const before = await engine.status();

    for (let i = 0; i < 6; i++) writeFileSync(join(root, "src", `module${i}.ts`), module(i, "second"));
    const requestsBefore = ollama.requestsTo("/api/embed").length;
    // Two batches succeed, then the server fails for good.
    ollama.failNext({ delayMs: 0 }, { delayMs: 0 }, ...Array.from({ length: 2 }, () => ({ status: 500, body: { error: "boom" } })));
    await expect(engine.index()).rejects.toThrow(/^Ollama at .* answered 500: boom \(gave up after 2 attempts\)$/);
    const embeddedInFailedPass = ollama.requestsTo("/api/embed").slice(requestsBefore, requestsBefore + 2).flatMap((r) => r.body.input);
    expect(embeddedInFailedPass).toHaveLength(4);

    // The failed pass left the index exactly as it was.
    expect((await engine.status()).chunks).toBe(before.chunks);
    const old = await engine.search("feature3Handler", { mode: "keyword", topK: 1 });
    expect(old[0].chunk.content).toContain("feature 3 first");

    const requestsAfterFailure = ollama.requestsTo("/api/embed").length;
    const summary = await engine.index();
    expect(summary.chunksFromCache).toBeGreaterThanOrEqual(4);
    const resent = ollama.requestsTo("/api/embed").slice(requestsAfterFailure).flatMap((r) => r.body.input);
    for (const t of embeddedInFailedPass) expect(resent).not.toContain(t);
    const fresh = await engine.search("feature3Handler", { mode: "keyword", topK: 1 });
    expect(fresh[0].chunk.content).toContain("feature 3 second");
  });
});

describe("descriptions and images through the engine", () => {
  it("indexes code without descriptions when the description LLM is down, and retries its images", async () => {
    root = makeWorkspace();
    writeFileSync(join(root, "docs", "chart.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 5, 5]));
    const port = await closedPort();
    const engine = await open("openai", {
      description: { enabled: true, provider: "openai", model: "gpt-fake", visionModel: "gpt-fake-vision", baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "sk-fake" },
    });
    const summary = await engine.index();
    expect(summary.errors).toEqual([
      { filePath: "docs/chart.png", error: `cannot chunk: cannot reach the OpenAI-compatible API (descriptions) at http://127.0.0.1:${port}/v1 (connection refused): start the server or set description.baseUrl` },
    ]);
    const hits = await engine.search("verify the session token signature", { topK: 3 });
    expect(hits[0].chunk.filePath).toBe("src/tokens.ts");
    expect(hits[0].chunk.description).toBe("");
  });

  it("stores LLM descriptions with chunks and makes images searchable", async () => {
    root = makeWorkspace();
    writeFileSync(join(root, "docs", "architecture.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 7, 7]));
    const vision = await startFakeOpenAI({
      apiKey: "sk-fake",
      chat: (req) => {
        const last = req.messages.at(-1)!;
        if (last.images.length > 0) return "Diagram of the payment gateway architecture with queues and workers.";
        const n = (last.text.match(/### Chunk \d+/g) ?? []).length;
        return JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), `Described chunk ${i + 1} for search.`])));
      },
    });
    try {
      const engine = await open("openai", {
        description: { enabled: true, provider: "openai", model: "gpt-fake", visionModel: "gpt-fake-vision", baseUrl: `${vision.url}/v1`, apiKey: "sk-fake" },
      });
      const summary = await engine.index();
      expect(summary.errors).toEqual([]);

      const hits = await engine.search("payment gateway architecture diagram", { topK: 5 });
      const image = hits.find((h) => h.chunk.kind === "image");
      expect(image?.chunk.filePath).toBe("docs/architecture.png");
      expect(image?.chunk.content).toBe("Diagram of the payment gateway architecture with queues and workers.");

      const code = await engine.search("verify the session token signature", { topK: 3 });
      expect(code[0].chunk.description).toMatch(/^Described chunk \d+ for search\.$/);

      // What describe_image does: read the stored row, no model call — not even an embedding
      // probe in a fresh session.
      const chatCalls = vision.requests.length;
      const embedCalls = openai.requests.length;
      const fresh = await open("openai", {
        description: { enabled: true, provider: "openai", model: "gpt-fake", visionModel: "gpt-fake-vision", baseUrl: `${vision.url}/v1`, apiKey: "sk-fake" },
      });
      const stored = await fresh.search("architecture.png", { mode: "keyword", filter: { pathPrefixes: ["docs/architecture.png"], kinds: ["image"] } });
      expect(stored[0]?.chunk.content).toBe("Diagram of the payment gateway architecture with queues and workers.");
      expect([vision.requests.length, openai.requests.length]).toEqual([chatCalls, embedCalls]);

      // A vision failure leaves that image out with a one-line error; the next pass describes it.
      writeFileSync(join(root, "docs", "flow.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9, 9]));
      vision.failNext(...Array.from({ length: 2 }, () => ({ status: 502, body: { error: { message: "Bad gateway", type: "server_error" } } })));
      const failed = await engine.index();
      expect(failed.errors).toEqual([
        { filePath: "docs/flow.png", error: expect.stringMatching(/^cannot chunk: the OpenAI-compatible API \(descriptions\) at .* answered 502: Bad gateway \(gave up after 2 attempts\)$/) },
      ]);
      const retried = await engine.index();
      expect(retried.errors).toEqual([]);
      expect(retried.filesIndexed).toBe(1);
      const flow = await engine.search("flow.png", { mode: "keyword", filter: { pathPrefixes: ["docs/flow.png"], kinds: ["image"] } });
      expect(flow[0]?.chunk.content).toBe("Diagram of the payment gateway architecture with queues and workers.");
    } finally {
      await vision.close();
    }
  });
});
