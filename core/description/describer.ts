// F14: LLM-written descriptions of chunks and images, with a content-hash cache and a budget.
//
// describeChunks: skip what needs no description (images, quirks, tiny chunks); answer cache
// hits at once; send the rest in batches (several chunks per request, concurrently up to the
// provider's concurrency limit) while the pass budget (chunks and tokens) lasts; any chunk a
// batch answer left out is asked for alone. What the budget did not cover stays undescribed
// this pass. describeImage: one vision request per image (SVG source goes to the text model),
// cached by the hash of the bytes.
import { createHash } from "node:crypto";
import type { RagConfig } from "../config/defaults.js";
import type { Logger } from "../engine-types.js";
import type { ChunkRecord } from "../types.js";
import { DescriptionCache } from "./cache.js";
import { createChatClient, estimateTokens, type ChatClient, type LlmMessage } from "./llm.js";
import {
  batchPrompt,
  CHUNK_SYSTEM_PROMPT,
  cleanDescription,
  IMAGE_SYSTEM_PROMPT,
  imagePrompt,
  MAX_CHUNK_CHARS_IN_PROMPT,
  parseBatchAnswer,
  singlePrompt,
  svgPrompt,
} from "./prompts.js";

export interface Describer {
  /** Descriptions by the records' contentHash, for every record that has one (cached or new). */
  describeChunks(chunks: ChunkRecord[], onProgress?: (done: number, total: number) => void): Promise<Map<string, string>>;
  /** The image's description, or null when no vision model is configured or the budget is spent. */
  describeImage(filePath: string, bytes: Uint8Array, mime: string): Promise<string | null>;
  /** Starts a new pass: the chunk and token budgets are full again. */
  beginPass(): void;
  /** What the current pass has spent. */
  spent(): { chunks: number; tokens: number; cacheHits: number };
  close(): Promise<void>;
}

export interface DescriberOptions {
  root: string;
  stateDir: string;
  logger?: Logger;
  /** Environment for API key lookup; default process.env. */
  env?: Record<string, string | undefined>;
}

/** Chunks shorter than this (non-space characters) say all they have to say themselves. */
const MIN_DESCRIBED_CHARS = 40;
/** Chunks per batch request, and the prompt size a batch stays under. */
const MAX_BATCH_CHUNKS = 8;
const MAX_BATCH_CHARS = 12_000;
/** Completion tokens asked for per described chunk. */
const ANSWER_TOKENS_PER_CHUNK = 120;
const SKIPPED_KINDS = new Set(["image", "quirk"]);

/** Returns null when descriptions are off; throws one line when they are on but unusable. */
export function createDescriber(config: RagConfig, opts: DescriberOptions): Describer | null {
  const d = config.description;
  if (!d.enabled) return null;
  if (!d.model.trim() && !d.visionModel.trim()) {
    throw new Error(
      `description.enabled is true but description.model is empty: set description.model (e.g. "gpt-4o-mini" or "llama3.2") or turn descriptions off`,
    );
  }
  const client = createChatClient(config, opts);
  return new LlmDescriber(config, client, new DescriptionCache(opts.stateDir), opts.logger);
}

class LlmDescriber implements Describer {
  private chunksSpent = 0;
  private tokensSpent = 0;
  private cacheHits = 0;
  private budgetLogged = false;

  constructor(
    private readonly config: RagConfig,
    private readonly client: ChatClient,
    private readonly cache: DescriptionCache,
    private readonly logger?: Logger,
  ) {}

  beginPass(): void {
    this.chunksSpent = this.tokensSpent = this.cacheHits = 0;
    this.budgetLogged = false;
  }

  spent() {
    return { chunks: this.chunksSpent, tokens: this.tokensSpent, cacheHits: this.cacheHits };
  }

  async close(): Promise<void> {
    this.cache.save();
    await this.client.close();
  }

  private get model(): string {
    return this.config.description.model.trim();
  }

  /** Reserves budget for `chunks` chunks costing about `tokens`; false when it would overrun. */
  private reserve(chunks: number, tokens: number): boolean {
    const d = this.config.description;
    if (this.chunksSpent + chunks > d.maxChunksPerPass || this.tokensSpent + tokens > d.maxTokensPerPass) {
      this.noteBudgetReached();
      return false;
    }
    this.chunksSpent += chunks;
    this.tokensSpent += tokens;
    return true;
  }

  private noteBudgetReached(): void {
    if (this.budgetLogged) return;
    this.budgetLogged = true;
    const d = this.config.description;
    this.logger?.info(
      `description budget of this pass reached (${this.chunksSpent}/${d.maxChunksPerPass} chunks, ${this.tokensSpent}/${d.maxTokensPerPass} tokens): the rest stays undescribed for now`,
    );
  }

  /** Replaces a reservation's estimate with what the server reported. */
  private settle(estimated: number, actual: number): void {
    this.tokensSpent += actual - estimated;
  }

  async describeChunks(chunks: ChunkRecord[], onProgress?: (done: number, total: number) => void): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    const model = this.model;
    const eligible = chunks.filter((c) => !SKIPPED_KINDS.has(c.kind) && c.content.replace(/\s+/g, "").length >= MIN_DESCRIBED_CHARS);
    // One request per distinct content, however many records share it.
    const todo = new Map<string, ChunkRecord[]>();
    for (const c of eligible) {
      const key = chunkKey(c);
      const cached = model ? this.cache.get(key, model) : undefined;
      if (cached !== undefined) {
        result.set(c.contentHash, cached);
        this.cacheHits++;
      } else if (todo.has(key)) todo.get(key)!.push(c);
      else todo.set(key, [c]);
    }
    const total = eligible.length;
    let done = eligible.length - [...todo.values()].reduce((n, list) => n + list.length, 0);
    onProgress?.(done, total);
    if (!model || todo.size === 0) return result;

    const record = (key: string, text: string) => {
      this.cache.set(key, model, text);
      for (const c of todo.get(key) ?? []) result.set(c.contentHash, text);
    };
    const advance = (keys: string[]) => {
      done += keys.reduce((n, k) => n + (todo.get(k)?.length ?? 0), 0);
      onProgress?.(done, total);
    };

    try {
      await Promise.all(
        this.batches(this.affordable([...todo.keys()]), todo).map(async (keys) => {
          const reps = keys.map((k) => todo.get(k)![0]);
          const prompt = batchPrompt(reps);
          const estimate = estimateTokens(CHUNK_SYSTEM_PROMPT + prompt) + ANSWER_TOKENS_PER_CHUNK * reps.length;
          if (!this.reserve(reps.length, estimate)) return;
          const answer = await this.client.chat(model, system(CHUNK_SYSTEM_PROMPT, prompt), ANSWER_TOKENS_PER_CHUNK * reps.length + 50);
          this.settle(estimate, answer.tokens);
          let parsed = parseBatchAnswer(answer.text, keys.length);
          // A one-chunk batch is often answered with the bare description.
          if (parsed.size === 0 && keys.length === 1) parsed = singleAnswer(answer.text);
          const missing: string[] = [];
          keys.forEach((k, i) => (parsed.has(i) ? record(k, parsed.get(i)!) : missing.push(k)));
          advance(keys.filter((k) => !missing.includes(k)));
          for (const k of missing) {
            // The batch answer skipped it (or was not JSON): ask for this one alone.
            const one = singlePrompt(todo.get(k)![0]);
            const est = estimateTokens(CHUNK_SYSTEM_PROMPT + one) + ANSWER_TOKENS_PER_CHUNK;
            if (!this.reserve(0, est)) continue;
            const single = await this.client.chat(model, system(CHUNK_SYSTEM_PROMPT, one), ANSWER_TOKENS_PER_CHUNK + 50);
            this.settle(est, single.tokens);
            const text = cleanDescription(single.text);
            if (text) record(k, text);
            advance([k]);
          }
        }),
      );
    } finally {
      // Whatever was described before a failure is kept: the next pass will not pay for it again.
      this.cache.save();
    }
    return result;
  }

  /** The keys the pass's chunk budget still covers (in order); logs once when it cuts. */
  private affordable(keys: string[]): string[] {
    const left = Math.max(0, this.config.description.maxChunksPerPass - this.chunksSpent);
    if (keys.length > left) this.noteBudgetReached();
    return keys.slice(0, left);
  }

  /** Groups keys into requests of at most MAX_BATCH_CHUNKS chunks and about MAX_BATCH_CHARS. */
  private batches(keys: string[], todo: Map<string, ChunkRecord[]>): string[][] {
    const out: string[][] = [];
    let current: string[] = [];
    let chars = 0;
    for (const k of keys) {
      const size = Math.min(todo.get(k)![0].content.length, MAX_CHUNK_CHARS_IN_PROMPT) + 200;
      if (current.length > 0 && (current.length >= MAX_BATCH_CHUNKS || chars + size > MAX_BATCH_CHARS)) {
        out.push(current);
        current = [];
        chars = 0;
      }
      current.push(k);
      chars += size;
    }
    if (current.length > 0) out.push(current);
    return out;
  }

  async describeImage(filePath: string, bytes: Uint8Array, mime: string): Promise<string | null> {
    const isSvg = mime === "image/svg+xml";
    // Vision APIs take raster images only; an SVG's source is text any model can read.
    const model = isSvg ? this.model || this.config.description.visionModel.trim() : this.config.description.visionModel.trim();
    if (!model) {
      this.logger?.debug(`no description.visionModel set: ${filePath} is not described`);
      return null;
    }
    if (isSvg && bytes.length > this.config.chunking.maxSvgSizeBytes) return null;
    const key = `image:${createHash("sha1").update(bytes).digest("hex")}`;
    const cached = this.cache.get(key, model);
    if (cached !== undefined) {
      this.cacheHits++;
      return cached;
    }
    const messages: LlmMessage[] = isSvg
      ? system(IMAGE_SYSTEM_PROMPT, svgPrompt(filePath, new TextDecoder().decode(bytes)))
      : [
          { role: "system", text: IMAGE_SYSTEM_PROMPT },
          { role: "user", text: imagePrompt(filePath), images: [{ mime, base64: toBase64(bytes) }] },
        ];
    const estimate = messages.reduce((n, m) => n + estimateTokens(m.text), 0) + (isSvg ? 0 : 300) + 200;
    if (!this.reserve(1, estimate)) return null;
    const answer = await this.client.chat(model, messages, 250);
    this.settle(estimate, answer.tokens);
    const text = cleanDescription(answer.text);
    if (!text) return null;
    this.cache.set(key, model, text);
    this.cache.save();
    return text;
  }
}

function system(systemPrompt: string, user: string): LlmMessage[] {
  return [
    { role: "system", text: systemPrompt },
    { role: "user", text: user },
  ];
}

function singleAnswer(text: string): Map<number, string> {
  const clean = cleanDescription(text);
  return clean ? new Map([[0, clean]]) : new Map();
}

/** What a description depends on: the code and where it sits, not the file it is in. */
function chunkKey(c: ChunkRecord): string {
  return createHash("sha1").update(`${c.language}\0${c.kind}\0${c.context}\0${c.content}`).digest("hex");
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
