// The text that gets embedded for a chunk: where it is, what encloses it, what it does (when
// described), then the code. The path and context let a method chunk be found by its class
// or file name even when the body never mentions them.
import type { Chunk } from "../types.js";

export function embeddingText(chunk: Chunk & { description?: string }): string {
  const head = chunk.context ? `${chunk.filePath} | ${chunk.context}` : chunk.filePath;
  const parts = [head];
  const description = chunk.description?.trim();
  if (description) parts.push(description);
  parts.push(chunk.content);
  return parts.join("\n");
}
