// A minimal chat client for the description LLM, over the shared HTTP client: OpenAI-compatible
// POST {baseUrl}/chat/completions (images as data-URL `image_url` parts) or Ollama POST
// {baseUrl}/api/chat (images as base64 in `images`). Non-streaming; returns the text and the
// token usage the server reports (estimated when it reports none).
import type { RagConfig } from "../config/defaults.js";
import type { Logger } from "../engine-types.js";
import { RemoteServiceError, type HttpClient, type RemoteSettings } from "../embedding/http.js";
import { ollamaClient } from "../embedding/ollama.js";
import { openaiClient } from "../embedding/openai.js";
import type { ChatClient, LlmMessage } from "../types.js";

export type { ChatClient, LlmAnswer, LlmImage, LlmMessage } from "../types.js";

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The HTTP settings for the description LLM: its own provider, URL, key and timeout; retries,
 * concurrency and proxy shared with the embedding provider. When both use the same provider,
 * an unset description URL or key falls back to the embedding one.
 */
export function descriptionHttpSettings(config: RagConfig): RemoteSettings {
  const d = config.description;
  const e = config.embedding;
  const same = e.provider === d.provider;
  return {
    baseUrl: d.baseUrl || (same ? e.baseUrl : ""),
    apiKey: d.apiKey || (same ? e.apiKey : ""),
    timeoutMs: d.timeoutMs,
    maxRetries: e.maxRetries,
    concurrency: e.concurrency,
    retryBaseMs: e.retryBaseMs,
    proxy: e.proxy,
  };
}

export function createChatClient(
  config: RagConfig,
  opts: { root: string; logger?: Logger; env?: Record<string, string | undefined> },
): ChatClient {
  const settings = descriptionHttpSettings(config);
  if (config.description.provider === "ollama") {
    const client = ollamaClient("Ollama (descriptions)", settings, config.description.model, "description", opts.logger);
    return {
      provider: "ollama",
      baseUrl: client.baseUrl,
      async chat(model, messages, maxTokens) {
        const body = await client.postJson<{ message?: { content?: string }; prompt_eval_count?: number; eval_count?: number }>(
          "/api/chat",
          {
            model,
            stream: false,
            options: { temperature: 0.2, num_predict: maxTokens },
            messages: messages.map((m) => ({
              role: m.role,
              content: m.text,
              ...(m.images && m.images.length > 0 ? { images: m.images.map((i) => i.base64) } : {}),
            })),
          },
        );
        const text = body.message?.content ?? "";
        const reported = (body.prompt_eval_count ?? 0) + (body.eval_count ?? 0);
        return { text, tokens: reported > 0 ? reported : estimate(messages, text) };
      },
      close: () => client.close(),
    };
  }
  const client: HttpClient = openaiClient("the OpenAI-compatible API (descriptions)", settings, "description", opts);
  // Reasoning models on OpenAI refuse `max_tokens` and any temperature but the default; the
  // first such refusal switches this client to `max_completion_tokens` without temperature.
  const reasoningModels = new Set<string>();
  type ChatBody = { choices?: Array<{ message?: { content?: string | null } }>; usage?: { total_tokens?: number } };
  const send = (model: string, maxTokens: number, wire: unknown[]) =>
    client.postJson<ChatBody>("/chat/completions", {
      model,
      // Their completion budget also pays for hidden reasoning, hence the headroom.
      ...(reasoningModels.has(model) ? { max_completion_tokens: maxTokens * 10 } : { temperature: 0.2, max_tokens: maxTokens }),
      messages: wire,
    });
  return {
    provider: "openai",
    baseUrl: client.baseUrl,
    async chat(model, messages, maxTokens) {
      const wire = messages.map((m) => ({
        role: m.role,
        content:
          m.images && m.images.length > 0
            ? [
                { type: "text", text: m.text },
                ...m.images.map((i) => ({ type: "image_url", image_url: { url: `data:${i.mime};base64,${i.base64}` } })),
              ]
            : m.text,
      }));
      let body: ChatBody;
      try {
        body = await send(model, maxTokens, wire);
      } catch (err) {
        const refused = err instanceof RemoteServiceError && err.status === 400 && /max_tokens|temperature/.test(err.serverMessage ?? "");
        if (!refused || reasoningModels.has(model)) throw err;
        reasoningModels.add(model);
        body = await send(model, maxTokens, wire);
      }
      const text = body.choices?.[0]?.message?.content ?? "";
      const reported = body.usage?.total_tokens ?? 0;
      return { text, tokens: reported > 0 ? reported : estimate(messages, text) };
    },
    close: () => client.close(),
  };
}

function estimate(messages: LlmMessage[], answer: string): number {
  // An image costs roughly what a low-detail tile does on OpenAI (85) up to a few hundred.
  const images = messages.reduce((n, m) => n + (m.images?.length ?? 0), 0);
  return messages.reduce((n, m) => n + estimateTokens(m.text), 0) + estimateTokens(answer) + images * 300;
}
