// A fake OpenAI-compatible server on 127.0.0.1 speaking the real wire format under /v1:
//   POST /v1/embeddings        {model, input, encoding_format?, dimensions?} -> {object:"list", data:[{object:"embedding", index, embedding}], model, usage}
//   POST /v1/chat/completions  {model, messages, stream?, tools?} -> chat.completion, or SSE chat.completion.chunk events + [DONE]
//   GET  /v1/models            -> {object:"list", data:[{id, object:"model", owned_by}]}
// Errors use OpenAI's shape {"error":{"message","type","param","code"}}; with `apiKey` set,
// requests without "Authorization: Bearer <apiKey>" get 401 like the real API.
import { describeResponder, replyParts, roughTokens, type ChatRequest, type ChatResponder } from "./chat.js";
import { fakeEmbedding } from "./fake-embedding.js";
import { FakeHttpServer, type FakeRequest, type Reply } from "./http-fake.js";

export interface FakeOpenAIOptions {
  /** Embedding models and their default vector length. */
  embeddingModels?: Record<string, number>;
  /** Chat models accepted by /chat/completions (others get 404 model_not_found); empty = any. */
  chatModels?: string[];
  /** Required bearer token; undefined = no auth (like a local compatible server). */
  apiKey?: string;
  chat?: ChatResponder;
}

export const FAKE_OPENAI_DEFAULT_EMBEDDING_MODELS: Record<string, number> = { "text-embedding-3-small": 48 };

function error(status: number, message: string, type: string, code: string | null, param: string | null = null): Reply {
  return { status, body: { error: { message, type, param, code } } };
}

/** The server's base URL for clients is `${server.url}/v1`. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeHttpServer> {
  const embeddingModels = options.embeddingModels ?? FAKE_OPENAI_DEFAULT_EMBEDDING_MODELS;
  const chat = options.chat ?? describeResponder;
  let calls = 0;

  return FakeHttpServer.start(async (req: FakeRequest): Promise<Reply> => {
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return error(401, "Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key");
    }
    const body = (req.body ?? {}) as Record<string, any>;
    if (req.method === "GET" && req.path === "/v1/models") {
      const ids = [...Object.keys(embeddingModels), ...(options.chatModels ?? [])];
      return { body: { object: "list", data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) } };
    }
    if (req.method === "POST" && req.path === "/v1/embeddings") {
      const dim = embeddingModels[String(body.model)];
      if (!dim) return error(404, `The model \`${String(body.model)}\` does not exist or you do not have access to it.`, "invalid_request_error", "model_not_found");
      const input: string[] = typeof body.input === "string" ? [body.input] : body.input;
      if (!Array.isArray(input) || input.some((t) => typeof t !== "string" || t.length === 0)) {
        return error(400, "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", "invalid_request_error", null);
      }
      const size = typeof body.dimensions === "number" ? body.dimensions : dim;
      const tokens = input.reduce((n, t) => n + roughTokens(t), 0);
      return {
        body: {
          object: "list",
          data: input.map((t, index) => ({ object: "embedding", index, embedding: fakeEmbedding(t, size) })),
          model: body.model,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        },
      };
    }
    if (req.method === "POST" && req.path === "/v1/chat/completions") {
      const model = String(body.model);
      if (options.chatModels && options.chatModels.length > 0 && !options.chatModels.includes(model)) {
        return error(404, `The model \`${model}\` does not exist or you do not have access to it.`, "invalid_request_error", "model_not_found");
      }
      const request = toChatRequest(body);
      const { content, toolCalls } = replyParts(await chat(request));
      const id = `chatcmpl-fake${++calls}`;
      const promptTokens = request.messages.reduce((n, m) => n + roughTokens(m.text), 0);
      const usage = { prompt_tokens: promptTokens, completion_tokens: roughTokens(content), total_tokens: promptTokens + roughTokens(content) };
      const finish = toolCalls.length > 0 ? "tool_calls" : "stop";
      const wireCalls = toolCalls.map((c, i) => ({
        id: `call_${calls}_${i}`,
        type: "function",
        function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) },
      }));
      if (body.stream) {
        const chunk = (delta: unknown, finish_reason: string | null, extra: object = {}) =>
          JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason }], ...extra });
        const events = [chunk({ role: "assistant", content: "" }, null)];
        if (content) events.push(chunk({ content }, null));
        wireCalls.forEach((c, index) => events.push(chunk({ tool_calls: [{ index, ...c }] }, null)));
        events.push(chunk({}, finish, { usage }));
        events.push("[DONE]");
        return { sse: events };
      }
      return {
        body: {
          id,
          object: "chat.completion",
          created: 0,
          model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: wireCalls.length > 0 && !content ? null : content, ...(wireCalls.length > 0 ? { tool_calls: wireCalls } : {}) },
              finish_reason: finish,
            },
          ],
          usage,
        },
      };
    }
    return error(404, `Invalid URL (${req.method} ${req.path})`, "invalid_request_error", null);
  });
}

function toChatRequest(body: Record<string, any>): ChatRequest {
  const messages = (body.messages ?? []).map((m: any) => {
    const parts: any[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : Array.isArray(m.content) ? m.content : [];
    const images: string[] = [];
    const imageTypes: string[] = [];
    for (const p of parts) {
      const url: string | undefined = p?.type === "image_url" ? (typeof p.image_url === "string" ? p.image_url : p.image_url?.url) : undefined;
      const match = url?.match(/^data:([^;]+);base64,(.*)$/s);
      if (match) {
        imageTypes.push(match[1]);
        images.push(match[2]);
      }
    }
    const text = parts.filter((p) => p?.type === "text").map((p) => String(p.text)).join("\n");
    return { role: String(m.role), text, images, imageTypes };
  });
  return { model: String(body.model), messages, tools: (body.tools ?? []).map((t: any) => String(t?.function?.name ?? "")) };
}
