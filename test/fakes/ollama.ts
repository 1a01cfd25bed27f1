// A fake Ollama server on 127.0.0.1 speaking the real wire format:
//   POST /api/embed       {model, input: string|string[]} -> {model, embeddings: number[][], ...}
//   POST /api/embeddings  {model, prompt} -> {embedding: number[]}  (pre-0.3 servers)
//   POST /api/chat        {model, messages: [{role, content, images?}], stream} -> {message, done, ...}
//   GET  /api/tags        -> {models: [{name, model, ...}]}
// Unknown models answer 404 {"error":"model \"x\" not found, try pulling it first"} like Ollama.
import { describeResponder, replyParts, roughTokens, type ChatRequest, type ChatResponder } from "./chat.js";
import { fakeEmbedding } from "./fake-embedding.js";
import { FakeHttpServer, type FakeRequest, type Reply } from "./http-fake.js";

export interface FakeOllamaOptions {
  /** Models the server "has pulled", with their vector length (chat models: any number). */
  models?: Record<string, number>;
  /** Behave like Ollama before 0.3: no /api/embed route. */
  legacyOnly?: boolean;
  chat?: ChatResponder;
}

export const FAKE_OLLAMA_DEFAULT_MODELS: Record<string, number> = { "nomic-embed-text": 64, "llama3.2": 0, llava: 0 };

export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeHttpServer> {
  const models = options.models ?? FAKE_OLLAMA_DEFAULT_MODELS;
  const chat = options.chat ?? describeResponder;
  const base = (name: string) => name.replace(/:latest$/, "");
  const missing = (name: unknown): Reply => ({
    status: 404,
    body: { error: `model "${String(name)}" not found, try pulling it first` },
  });
  const dimOf = (name: unknown) => models[base(String(name))];

  return FakeHttpServer.start(async (req: FakeRequest): Promise<Reply> => {
    const body = (req.body ?? {}) as Record<string, any>;
    if (req.method === "GET" && req.path === "/api/tags") {
      return { body: { models: Object.keys(models).map((name) => ({ name: `${name}:latest`, model: `${name}:latest`, size: 1 })) } };
    }
    if (req.method === "POST" && req.path === "/api/embed" && !options.legacyOnly) {
      const dim = dimOf(body.model);
      if (!dim) return missing(body.model);
      const input: string[] = typeof body.input === "string" ? [body.input] : body.input;
      if (!Array.isArray(input)) return { status: 400, body: { error: "invalid input type" } };
      return {
        body: {
          model: body.model,
          embeddings: input.map((t) => fakeEmbedding(t, dim)),
          total_duration: 1000,
          load_duration: 10,
          prompt_eval_count: input.reduce((n, t) => n + roughTokens(t), 0),
        },
      };
    }
    if (req.method === "POST" && req.path === "/api/embeddings") {
      const dim = dimOf(body.model);
      if (!dim) return missing(body.model);
      return { body: { embedding: fakeEmbedding(String(body.prompt ?? ""), dim) } };
    }
    if (req.method === "POST" && req.path === "/api/chat") {
      if (dimOf(body.model) === undefined) return missing(body.model);
      const request: ChatRequest = {
        model: String(body.model),
        messages: (body.messages ?? []).map((m: any) => ({
          role: String(m.role),
          text: String(m.content ?? ""),
          images: Array.isArray(m.images) ? m.images : [],
          imageTypes: [],
        })),
        tools: (body.tools ?? []).map((t: any) => String(t?.function?.name ?? "")),
      };
      const { content } = replyParts(await chat(request));
      return {
        body: {
          model: body.model,
          created_at: new Date(0).toISOString(),
          message: { role: "assistant", content },
          done: true,
          done_reason: "stop",
          prompt_eval_count: request.messages.reduce((n, m) => n + roughTokens(m.text), 0),
          eval_count: roughTokens(content),
        },
      };
    }
    // Ollama's router answers unknown paths with a plain-text 404.
    return { status: 404, body: "404 page not found" };
  });
}
