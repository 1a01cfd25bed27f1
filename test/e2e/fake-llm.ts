// A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for driving the real
// OpenCode: it streams the wire format OpenCode's provider expects (SSE chunks with content and
// tool_calls deltas) and records every request body so tests can assert on what the model saw.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: Array<{ function?: { name: string }; name?: string }>;
}

export interface Reply {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
}

/** A rule answers the first request it matches, at most `times` times (default: unlimited). */
export interface Rule {
  name: string;
  when: (req: ChatRequest) => boolean;
  reply: Reply | ((req: ChatRequest) => Reply);
  times?: number;
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : (p?.text ?? ""))).join("\n");
  return content == null ? "" : JSON.stringify(content);
}

export const toolNames = (req: ChatRequest): string[] => (req.tools ?? []).map((t) => t.function?.name ?? t.name ?? "");
export const systemText = (req: ChatRequest): string => req.messages.filter((m) => m.role === "system").map((m) => textOf(m.content)).join("\n");
export const userTexts = (req: ChatRequest): string[] => req.messages.filter((m) => m.role === "user").map((m) => textOf(m.content));
export const toolResults = (req: ChatRequest): string[] => req.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content));

/** Names of the tools already called in this conversation, in order. */
export function calledTools(req: ChatRequest): string[] {
  return req.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.function.name));
}

export class FakeLlm {
  readonly requests: ChatRequest[] = [];
  private server: Server | null = null;
  private readonly used = new Map<string, number>();
  private counter = 0;

  constructor(private readonly rules: Rule[]) {}

  async start(): Promise<number> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Requests that offered tools: the agent's turns (the title request offers none). */
  agentRequests(): ChatRequest[] {
    return this.requests.filter((r) => toolNames(r).length > 0);
  }

  private pick(req: ChatRequest): Reply {
    for (const rule of this.rules) {
      const n = this.used.get(rule.name) ?? 0;
      if (rule.times !== undefined && n >= rule.times) continue;
      if (!rule.when(req)) continue;
      this.used.set(rule.name, n + 1);
      return typeof rule.reply === "function" ? rule.reply(req) : rule.reply;
    }
    return { text: "ok" };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.method === "GET" && req.url?.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model" }] }));
      return;
    }
    if (req.method !== "POST" || !req.url?.includes("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw || "{}") as ChatRequest;
    body.messages ??= [];
    this.requests.push(body);
    const reply = this.pick(body);
    const id = `chatcmpl-${++this.counter}`;
    const base = { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: body.model ?? "fake-model" };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: reply.text ?? "" }, finish_reason: "stop" }] }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (delta: object, finish: string | null = null) => res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    send({ role: "assistant", content: "" });
    if (reply.text) send({ content: reply.text });
    (reply.toolCalls ?? []).forEach((call, index) => {
      send({ tool_calls: [{ index, id: `call_${this.counter}_${index}`, type: "function", function: { name: call.name, arguments: "" } }] });
      send({ tool_calls: [{ index, function: { arguments: JSON.stringify(call.arguments) } }] });
    });
    send({}, reply.toolCalls?.length ? "tool_calls" : "stop");
    res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
    res.end("data: [DONE]\n\n");
  }
}
