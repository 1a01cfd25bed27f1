// How a file becomes chunks, as an ordered list of handlers: the first one that claims a
// path produces its chunks. Built in: PDFs (bytes to the PDF chunker) and text (binary files,
// generated API documentation pages and generated or minified source past
// indexing.maxFileSizeBytes skipped). Other parts add handlers at the front (e.g. image descriptions) with
// `registerFileHandler`; handlers registered in a process run in that process, never in a
// chunking worker, so they may hold any state they like.
import type { RagConfig } from "../config/defaults.js";
import type { Chunk, ChunkRecord } from "../types.js";
import { decodeFileText, isPdf } from "../files/binary.js";
import { documentationGenerator } from "../files/generated-docs.js";
import { largeSourceSkipReason } from "./large-source.js";
import { chunkFile } from "../chunking/index.js";

export interface FileHandlerContext {
  chunking: RagConfig["chunking"];
  config: RagConfig;
  root: string;
}

/**
 * What a handler says about one file: its chunks (with warnings when they are not what the
 * file's format asked for, e.g. line windows after its chunker failed), or why it has none on
 * purpose.
 */
export type HandlerResult = { chunks: Chunk[]; warnings?: string[] } | { skipped: string };

export interface FileHandler {
  readonly name: string;
  matches(filePath: string): boolean;
  handle(filePath: string, bytes: Uint8Array, ctx: FileHandlerContext): Promise<HandlerResult>;
}

/** A step between chunking and embedding, e.g. writing LLM descriptions into records. */
export interface ChunkEnricher {
  readonly name: string;
  enrich(records: ChunkRecord[], ctx: FileHandlerContext & { signal?: AbortSignal }): Promise<void>;
}

export const pdfHandler: FileHandler = {
  name: "pdf",
  matches: isPdf,
  async handle(filePath, bytes, ctx) {
    return { chunks: await chunkFile(filePath, bytes, ctx.chunking) };
  },
};

export const textHandler: FileHandler = {
  name: "text",
  matches: () => true,
  async handle(filePath, bytes, ctx) {
    const text = decodeFileText(bytes);
    if (text === null) return { skipped: "binary" };
    const generator = documentationGenerator(filePath, text);
    if (generator) return { skipped: `generated documentation (${generator})` };
    // Only source code gets past indexing.maxFileSizeBytes (the walk and the read see to it).
    if (bytes.length > ctx.config.indexing.maxFileSizeBytes) {
      const reason = largeSourceSkipReason(text, ctx.config.indexing.maxFileSizeBytes, ctx.chunking.maxChars, bytes.length);
      if (reason) return { skipped: reason };
    }
    const warnings: string[] = [];
    const chunks = await chunkFile(filePath, text, ctx.chunking, (w) => warnings.push(w.message));
    return warnings.length ? { chunks, warnings } : { chunks };
  },
};

/** Handlers every process (and every chunking worker) has. */
export const BUILTIN_HANDLERS: readonly FileHandler[] = [pdfHandler, textHandler];

const registeredHandlers: FileHandler[] = [];
const registeredEnrichers: ChunkEnricher[] = [];
/** Extensions claimed by chunkers registered at run time in this process. */
const inProcessExtensions = new Set<string>();

/** Adds a handler that is asked before the built-in ones (later registrations first). */
export function registerFileHandler(handler: FileHandler): void {
  const i = registeredHandlers.findIndex((h) => h.name === handler.name);
  if (i >= 0) registeredHandlers.splice(i, 1);
  registeredHandlers.unshift(handler);
}

export function registerChunkEnricher(enricher: ChunkEnricher): void {
  const i = registeredEnrichers.findIndex((e) => e.name === enricher.name);
  if (i >= 0) registeredEnrichers.splice(i, 1);
  registeredEnrichers.push(enricher);
}

export function chunkEnrichers(): readonly ChunkEnricher[] {
  return registeredEnrichers;
}

/** Files with these extensions are chunked in this process (a worker would not know the chunker). */
export function markInProcessExtensions(extensions: readonly string[]): void {
  for (const e of extensions) inProcessExtensions.add(e.toLowerCase());
}

export function handlerFor(filePath: string, includeRegistered = true): FileHandler {
  if (includeRegistered) for (const h of registeredHandlers) if (h.matches(filePath)) return h;
  for (const h of BUILTIN_HANDLERS) if (h.matches(filePath)) return h;
  return textHandler;
}

/** Whether a chunking worker can handle this file exactly as this process would. */
export function workerCanHandle(filePath: string): boolean {
  if (registeredHandlers.some((h) => h.matches(filePath))) return false;
  const lower = filePath.toLowerCase();
  for (const ext of inProcessExtensions) if (lower.endsWith(ext)) return false;
  return true;
}
