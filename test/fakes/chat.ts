// What a fake LLM answers. Both fakes (OpenAI chat/completions, Ollama /api/chat) turn the
// request into a ChatRequest and ask a ChatResponder; the default responder understands the
// description prompts of core/description and otherwise echoes the last user message.
export interface ChatMessage {
  role: string;
  text: string;
  /** Images as base64 (Ollama `images`, or the payload of an OpenAI data URL). */
  images: string[];
  /** MIME types of the images when the wire format carries them (OpenAI data URLs). */
  imageTypes: string[];
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Tool names offered by the client (OpenAI `tools`), for fakes that call tools. */
  tools: string[];
}

export interface ToolCall {
  name: string;
  arguments: unknown;
}

export type ChatReply = string | { content?: string; toolCalls?: ToolCall[] };

export type ChatResponder = (req: ChatRequest) => ChatReply | Promise<ChatReply>;

/** Deterministic descriptions: "<symbol or file>: <first words of the code>". */
export const describeResponder: ChatResponder = (req) => {
  const last = req.messages.filter((m) => m.role === "user").at(-1);
  if (!last) return "";
  if (last.images.length > 0) return `An image of ${last.images[0].length} base64 characters.`;
  const sections = [...last.text.matchAll(/^### Chunk (\d+)\n([\s\S]*?)(?=^### Chunk \d+\n|(?![\s\S]))/gm)];
  if (sections.length === 0) return `Echo: ${last.text.slice(0, 200)}`;
  const out: Record<string, string> = {};
  for (const [, n, body] of sections) {
    const header = body.split("\n")[0] ?? "";
    const code = body.split("```")[1] ?? "";
    const words = code.replace(/\s+/g, " ").trim().split(" ").slice(0, 8).join(" ");
    out[n] = `Described ${header.replace(/^File:\s*/, "")}: ${words}`;
  }
  return JSON.stringify(out);
};

export function replyParts(reply: ChatReply): { content: string; toolCalls: ToolCall[] } {
  return typeof reply === "string" ? { content: reply, toolCalls: [] } : { content: reply.content ?? "", toolCalls: reply.toolCalls ?? [] };
}

/** Rough token count for usage fields (4 characters a token). */
export function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
