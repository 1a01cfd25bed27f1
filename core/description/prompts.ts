// The prompts of the description LLM and the parsing of its answers, in one place. A batch
// prompt numbers its chunks ("### Chunk 1" ...) and asks for a JSON object {"1": "...", ...};
// answers are parsed leniently (code fences, prose around the JSON) because models wrap JSON.
// Portable: no Node built-ins.
import type { ChunkRecord } from "../types.js";

export const CHUNK_SYSTEM_PROMPT =
  "You write descriptions of source code for a code search index. For each piece of code, write one short paragraph " +
  "(at most three sentences) saying what it does and what a developer would search for to find it: its purpose, " +
  "inputs, outputs and side effects. Use plain words a developer would type; name the important identifiers. " +
  "Do not repeat the code, do not speculate, no markdown.";

export const IMAGE_SYSTEM_PROMPT =
  "You describe images from a software project for a search index. Write one short paragraph (at most four sentences): " +
  "what the image shows (diagram, screenshot, icon, logo, chart, photo), any visible text, and what it is likely used for. " +
  "No markdown.";

/** Characters of one chunk sent to the LLM: enough to understand it, bounded cost. */
export const MAX_CHUNK_CHARS_IN_PROMPT = 3000;

function fence(content: string): string {
  const body = content.length > MAX_CHUNK_CHARS_IN_PROMPT ? `${content.slice(0, MAX_CHUNK_CHARS_IN_PROMPT)}\n…` : content;
  // A fence longer than any backtick run inside the code keeps the sections parseable.
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}\n${body}\n${ticks}`;
}

function header(c: ChunkRecord): string {
  const what = [c.language, c.kind, c.symbol].filter(Boolean).join(" ");
  return `File: ${c.filePath} (${what})${c.context ? `\nContext: ${c.context}` : ""}`;
}

export function batchPrompt(chunks: ChunkRecord[]): string {
  const sections = chunks.map((c, i) => `### Chunk ${i + 1}\n${header(c)}\n${fence(c.content)}`);
  return (
    `Describe each of the following ${chunks.length} code chunks. Answer with only a JSON object that maps each chunk ` +
    `number to its description, like {"1": "...", "2": "..."}.\n\n${sections.join("\n\n")}`
  );
}

export function singlePrompt(chunk: ChunkRecord): string {
  return `Describe this code chunk. Answer with the description only.\n\n${header(chunk)}\n${fence(chunk.content)}`;
}

export function imagePrompt(filePath: string): string {
  return `Describe the image ${filePath}. Answer with the description only.`;
}

export function svgPrompt(filePath: string, svgText: string): string {
  return `This is the source of the SVG image ${filePath}. Describe the picture it draws. Answer with the description only.\n\n${fence(svgText)}`;
}

/** Reads {"1": "...", ...} (or an array) out of an answer; returns descriptions by 0-based index. */
export function parseBatchAnswer(raw: string, count: number): Map<number, string> {
  const out = new Map<number, string>();
  const answer = withoutReasoning(raw);
  const start = answer.search(/[[{]/);
  const end = Math.max(answer.lastIndexOf("}"), answer.lastIndexOf("]"));
  if (start < 0 || end <= start) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.slice(start, end + 1));
  } catch {
    return out;
  }
  const entries: Array<[number, unknown]> = Array.isArray(parsed)
    ? parsed.map((v, i) => [i, v])
    : parsed && typeof parsed === "object"
      ? Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [Number.parseInt(k.replace(/\D+/g, ""), 10) - 1, v])
      : [];
  for (const [i, v] of entries) {
    const text = typeof v === "string" ? v : v && typeof v === "object" && typeof (v as { description?: unknown }).description === "string" ? (v as { description: string }).description : "";
    const clean = cleanDescription(text);
    if (Number.isInteger(i) && i >= 0 && i < count && clean) out.set(i, clean);
  }
  return out;
}

/** Reasoning models (deepseek-r1, qwen3 on Ollama) put their thinking in <think> blocks. */
function withoutReasoning(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/g, "");
}

/** One paragraph, no markdown fences, no reasoning block, bounded length. */
export function cleanDescription(text: string): string {
  const t = withoutReasoning(text)
    .replace(/^```[a-z]*\s*|```\s*$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return t.length > 800 ? `${t.slice(0, 797)}…` : t;
}
