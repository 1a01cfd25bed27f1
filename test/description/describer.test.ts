// Descriptions (F14) against fake OpenAI-compatible and Ollama chat servers: batching, the
// content-hash cache (in memory and on disk), budgets, progress, fallbacks for answers that are
// not JSON, image descriptions (vision data URLs, Ollama images, SVG as text) and failures.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CONFIG, type RagConfig } from "../../core/config/defaults.js";
import { createDescriber, type Describer } from "../../core/description/describer.js";
import { DESCRIPTION_CACHE_FILE } from "../../core/description/cache.js";
import type { ChunkRecord } from "../../core/types.js";
import { describeResponder, type ChatRequest } from "../fakes/chat.js";
import { startFakeOpenAI } from "../fakes/openai.js";
import { startFakeOllama } from "../fakes/ollama.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";

let server: FakeHttpServer | null = null;
let stateDir: string;
const describers: Describer[] = [];
const noEnv = { HOME: "/nonexistent-home", XDG_CONFIG_HOME: "/nonexistent-config", XDG_DATA_HOME: "/nonexistent-data" };

beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), "rag-desc-"));
});
afterEach(async () => {
  await Promise.all(describers.splice(0).map((d) => d.close()));
  await server?.close();
  server = null;
  rmSync(stateDir, { recursive: true, force: true });
});

function config(description: Partial<RagConfig["description"]>, embedding: Partial<RagConfig["embedding"]> = {}): RagConfig {
  const c = structuredClone(DEFAULT_CONFIG) as RagConfig;
  Object.assign(c.description, { enabled: true, provider: "openai", model: "gpt-test", ...description });
  Object.assign(c.embedding, { retryBaseMs: 5, ...embedding });
  return c;
}

function make(c: RagConfig): Describer {
  const d = createDescriber(c, { root: stateDir, stateDir, env: noEnv })!;
  describers.push(d);
  return d;
}

function chunk(i: number, extra: Partial<ChunkRecord> = {}): ChunkRecord {
  const content = `export function handler${i}(request: Request) {\n  return validateToken${i}(request.headers.authorization);\n}`;
  return {
    id: `id${i}`,
    contentHash: `hash${i}`,
    description: "",
    filePath: `src/h${i}.ts`,
    startLine: 1,
    endLine: 3,
    language: "typescript",
    kind: "function",
    symbol: `handler${i}`,
    context: `function handler${i}(request)`,
    content,
    ...extra,
  };
}

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);

describe("describeChunks", () => {
  it("is null when descriptions are off and names the missing model when on without one", () => {
    expect(createDescriber(structuredClone(DEFAULT_CONFIG) as RagConfig, { root: stateDir, stateDir })).toBeNull();
    expect(() => createDescriber(config({ model: "" }), { root: stateDir, stateDir, env: noEnv })).toThrow(
      'description.enabled is true but description.model is empty: set description.model (e.g. "gpt-4o-mini" or "llama3.2") or turn descriptions off',
    );
  });

  it("describes chunks in batches of up to 8 and reports progress to the total", async () => {
    server = await startFakeOpenAI({ chatModels: ["gpt-test"] });
    const d = make(config({ baseUrl: `${server.url}/v1` }));
    const chunks = Array.from({ length: 11 }, (_, i) => chunk(i));
    const progress: Array<[number, number]> = [];
    const out = await d.describeChunks(chunks, (done, total) => progress.push([done, total]));

    expect(out.size).toBe(11);
    expect(out.get("hash3")).toMatch(/^Described src\/h3\.ts \(typescript function handler3\): export function handler3\(request/);
    expect(out.get("hash10")).toMatch(/^Described src\/h10\.ts/);
    const calls = server.requestsTo("/v1/chat/completions");
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => (c.body.messages[1].content.match(/### Chunk \d+/g) ?? []).length)).toEqual([8, 3]);
    expect(calls[0].body.messages[0].role).toBe("system");
    expect(progress[0]).toEqual([0, 11]);
    expect(progress.at(-1)).toEqual([11, 11]);
  });

  it("answers from the cache, in this describer and in a new one reading the state dir", async () => {
    server = await startFakeOpenAI();
    const c = config({ baseUrl: `${server.url}/v1` });
    const first = await make(c).describeChunks([chunk(1), chunk(2)]);
    expect(server.requests).toHaveLength(1);
    expect(existsSync(join(stateDir, DESCRIPTION_CACHE_FILE))).toBe(true);

    // Same content elsewhere (another file, another hash) is a cache hit too.
    const moved = chunk(1, { filePath: "lib/other.ts", contentHash: "moved" });
    const again = await make(c).describeChunks([moved, chunk(2)]);
    expect(server.requests).toHaveLength(1);
    expect(again.get("moved")).toBe(first.get("hash1"));
    expect(again.get("hash2")).toBe(first.get("hash2"));

    // Another model does not reuse the first model's words.
    await make(config({ baseUrl: `${server.url}/v1`, model: "gpt-other" })).describeChunks([chunk(1)]);
    expect(server.requests).toHaveLength(2);
  });

  it("skips tiny chunks, images and quirks", async () => {
    server = await startFakeOpenAI();
    const d = make(config({ baseUrl: `${server.url}/v1` }));
    const out = await d.describeChunks([
      chunk(1, { content: "import x from 'y';" }),
      chunk(2, { kind: "image" }),
      chunk(3, { kind: "quirk" }),
    ]);
    expect(out.size).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("stops at maxChunksPerPass and continues in the next pass", async () => {
    server = await startFakeOpenAI();
    const logs: string[] = [];
    const c = config({ baseUrl: `${server.url}/v1`, maxChunksPerPass: 3 });
    const d = createDescriber(c, { root: stateDir, stateDir, env: noEnv, logger: { debug() {}, info: (m) => logs.push(m), error() {} } })!;
    describers.push(d);
    const chunks = Array.from({ length: 5 }, (_, i) => chunk(i));
    expect((await d.describeChunks(chunks)).size).toBe(3);
    expect(d.spent().chunks).toBe(3);
    expect(logs.some((l) => l.startsWith("description budget of this pass reached (0/3 chunks"))).toBe(true);
    expect((await d.describeChunks(chunks)).size).toBe(3); // budget spent: cache hits only

    d.beginPass();
    expect((await d.describeChunks(chunks)).size).toBe(5);
    expect(server.requests).toHaveLength(2);
  });

  it("stops at maxTokensPerPass", async () => {
    server = await startFakeOpenAI();
    const d = make(config({ baseUrl: `${server.url}/v1`, maxTokensPerPass: 10 }));
    expect((await d.describeChunks([chunk(1)])).size).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("asks for each chunk alone when a batch answer is not JSON", async () => {
    server = await startFakeOpenAI({
      chat: (req: ChatRequest) => {
        const text = req.messages.at(-1)!.text;
        if (text.startsWith("Describe each")) return "Sure! Here are the descriptions you asked for.";
        return `Single: ${text.match(/File: (\S+)/)![1]}`;
      },
    });
    const d = make(config({ baseUrl: `${server.url}/v1` }));
    const out = await d.describeChunks([chunk(1), chunk(2)]);
    expect(Object.fromEntries(out)).toEqual({ hash1: "Single: src/h1.ts", hash2: "Single: src/h2.ts" });
    expect(server.requests).toHaveLength(3);
  });

  it("switches to max_completion_tokens when a reasoning model refuses max_tokens", async () => {
    server = await startFakeOpenAI();
    server.failNext({
      status: 400,
      body: {
        error: {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: "invalid_request_error",
          param: "max_tokens",
          code: "unsupported_parameter",
        },
      },
    });
    const d = make(config({ baseUrl: `${server.url}/v1`, model: "o-reasoner" }));
    expect((await d.describeChunks([chunk(1)])).size).toBe(1);
    await d.describeChunks([chunk(2)]);
    const [refused, accepted, next] = server.requestsTo("/v1/chat/completions").map((r) => r.body);
    expect(refused).toHaveProperty("max_tokens");
    expect(accepted).not.toHaveProperty("max_tokens");
    expect(accepted).not.toHaveProperty("temperature");
    expect(accepted.max_completion_tokens).toBeGreaterThan(refused.max_tokens);
    expect(next).toHaveProperty("max_completion_tokens");
  });

  it("drops the <think> block of reasoning models", async () => {
    server = await startFakeOllama({
      chat: (req) => `<think>The user wants JSON {"1": "wrong"}.</think>\n${describeResponder(req)}`,
    });
    const d = make(config({ provider: "ollama", model: "llama3.2", baseUrl: server.url }));
    const out = await d.describeChunks([chunk(4)]);
    expect(out.get("hash4")).toMatch(/^Described src\/h4\.ts/);
  });

  it("works with Ollama's /api/chat", async () => {
    server = await startFakeOllama();
    const d = make(config({ provider: "ollama", model: "llama3.2", baseUrl: server.url }));
    const out = await d.describeChunks([chunk(7)]);
    expect(out.get("hash7")).toMatch(/^Described src\/h7\.ts/);
    const [call] = server.requestsTo("/api/chat");
    expect(call.body).toMatchObject({ model: "llama3.2", stream: false });
  });

  it("fails with one line when the LLM is down, keeping what was already described", async () => {
    server = await startFakeOpenAI();
    const c = config({ baseUrl: `${server.url}/v1` }, { maxRetries: 0 });
    await make(c).describeChunks([chunk(1)]);
    server.failNext({ status: 503, body: { error: { message: "The server is overloaded", type: "server_error" } } });
    const err = await make(c).describeChunks([chunk(1), chunk(2)]).catch((e) => e);
    expect(err.message).toBe(`the OpenAI-compatible API (descriptions) at ${server.url}/v1 answered 503: The server is overloaded (gave up after 1 attempt)`);
    const cache = JSON.parse(readFileSync(join(stateDir, DESCRIPTION_CACHE_FILE), "utf8"));
    expect(Object.keys(cache.entries)).toHaveLength(1);
  });
});

describe("describeImage", () => {
  it("sends raster images to the vision model as a data URL and caches by content", async () => {
    const seen: ChatRequest[] = [];
    server = await startFakeOpenAI({
      chat: (req) => {
        seen.push(req);
        return req.messages.at(-1)!.images.length ? "A red fox logo on a white background." : describeResponder(req);
      },
    });
    const d = make(config({ baseUrl: `${server.url}/v1`, visionModel: "gpt-vision" }));
    expect(await d.describeImage("assets/logo.png", png, "image/png")).toBe("A red fox logo on a white background.");
    expect(seen[0].model).toBe("gpt-vision");
    expect(seen[0].messages.at(-1)!.imageTypes).toEqual(["image/png"]);
    expect(Buffer.from(seen[0].messages.at(-1)!.images[0], "base64")).toEqual(Buffer.from(png));

    expect(await make(config({ baseUrl: `${server.url}/v1`, visionModel: "gpt-vision" })).describeImage("copy.png", png, "image/png")).toBe(
      "A red fox logo on a white background.",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("sends images to Ollama as base64 `images`", async () => {
    server = await startFakeOllama({ chat: (req) => `Ollama saw ${req.messages.at(-1)!.images.length} image(s)` });
    const d = make(config({ provider: "ollama", model: "llama3.2", visionModel: "llava", baseUrl: server.url }));
    expect(await d.describeImage("a.jpg", png, "image/jpeg")).toBe("Ollama saw 1 image(s)");
    expect(server.requestsTo("/api/chat")[0].body.messages.at(-1).images).toEqual([Buffer.from(png).toString("base64")]);
  });

  it("returns null without a vision model, and reads SVG source with the text model", async () => {
    server = await startFakeOpenAI({ chat: (req) => (req.messages.at(-1)!.text.includes("<svg") ? "A blue circle icon." : "?") });
    const d = make(config({ baseUrl: `${server.url}/v1`, visionModel: "" }));
    expect(await d.describeImage("a.png", png, "image/png")).toBeNull();
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4" fill="blue"/></svg>');
    expect(await d.describeImage("icon.svg", svg, "image/svg+xml")).toBe("A blue circle icon.");
    expect(server.requests[0].body.model).toBe("gpt-test");
  });
});
