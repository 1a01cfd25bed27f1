// Token counting with the cl100k BPE (the tokenizer of the GPT-4 family). Budgets for tool
// answers and injected context are stated in these tokens: a character heuristic is 20-40%
// off on code. Pure JS, no Node built-ins, so it also runs in the browser build.
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";

let encoder: Tiktoken | null = null;

function enc(): Tiktoken {
  // Building the rank table takes ~100 ms: do it once, on first use.
  if (!encoder) encoder = new Tiktoken(cl100k);
  return encoder;
}

/** Number of cl100k tokens in `text`. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return enc().encode(text).length;
}

/**
 * The longest prefix of `text` within `maxTokens` tokens, cut at a line end when one is near,
 * so a truncated answer never ends mid-line.
 */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return "";
  const tokens = enc().encode(text);
  if (tokens.length <= maxTokens) return text;
  const cut = enc().decode(tokens.slice(0, maxTokens));
  const nl = cut.lastIndexOf("\n");
  return nl > cut.length / 2 ? cut.slice(0, nl) : cut;
}
