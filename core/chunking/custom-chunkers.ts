// User chunkers from config (F4): `chunkers: [{ module, extensions }]`. Module paths arrive
// absolute (the config loader resolves them against the config file). A module may export
// the chunker as default or under any name; it may return chunks in the flat `Chunk` shape
// or the older `{ content, metadata: { filePath, startLine, endLine, language } }` shape.
import type { Chunk, Chunker } from "../types.js";
import { registerChunker } from "./registry.js";
import { oneLine } from "../error-line.js";

export interface CustomChunkerEntry {
  module: string;
  extensions?: string[];
}

export async function loadCustomChunkers(
  entries: CustomChunkerEntry[],
  warn: (message: string) => void = console.warn,
): Promise<void> {
  for (const [i, entry] of entries.entries()) {
    const where = `chunkers[${i}].module`;
    if (typeof entry?.module !== "string" || !isAbsoluteOrUrl(entry.module)) {
      throw new Error(`${where}: expected an absolute path or file URL, got ${JSON.stringify(entry?.module)}; load the config with loadConfig, which resolves it against the config file`);
    }
    let mod: Record<string, unknown>;
    try {
      mod = (await import(/* @vite-ignore */ moduleUrl(entry.module))) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`${where}: cannot load "${entry.module}" (${oneLine(err)}); fix the path in the config (relative to the config file)`);
    }
    const chunker = findChunker(mod);
    if (!chunker) {
      throw new Error(`${where}: "${entry.module}" exports no chunker; export an object with language and chunk(filePath, content)`);
    }
    registerChunker(chunker, entry.extensions, warn);
  }
}

function isAbsoluteOrUrl(path: string): boolean {
  return /^([a-z][a-z0-9+.-]*:\/\/|\/|[A-Za-z]:[\\/]|\\\\)/i.test(path);
}

/** An absolute path (POSIX or Windows) or a URL, as an import specifier, without Node's url module. */
function moduleUrl(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return path;
  const slashed = path.replace(/\\/g, "/");
  const withRoot = /^[A-Za-z]:\//.test(slashed) ? `/${slashed}` : slashed;
  return `file://${encodeURI(withRoot).replace(/[?#]/g, encodeURIComponent)}`;
}


function isChunker(value: unknown): value is Chunker {
  return !!value && typeof value === "object" && typeof (value as Chunker).chunk === "function";
}

/** Default export first, then named exports; a class with a chunk method is instantiated. */
function findChunker(mod: Record<string, unknown>): Chunker | null {
  const candidates = [mod.default, ...Object.entries(mod).filter(([k]) => k !== "default").map(([, v]) => v)];
  for (const value of candidates) {
    if (isChunker(value)) return value;
    if (typeof value === "function" && typeof (value as { prototype?: Chunker }).prototype?.chunk === "function") {
      try {
        const instance = new (value as new () => Chunker)();
        if (isChunker(instance)) return instance;
      } catch {
        // needs constructor arguments: not usable as a chunker
      }
    }
  }
  return null;
}

interface LegacyChunk {
  content: string;
  metadata: { filePath?: string; startLine?: number; endLine?: number; language?: string; kind?: string; symbol?: string; context?: string; type?: string; name?: string };
}

/** Brings a user chunker's output into the flat Chunk shape, rejecting what cannot be indexed. */
export function normaliseChunks(raw: unknown, chunker: Chunker, filePath: string): Chunk[] {
  if (!Array.isArray(raw)) {
    throw new Error(`chunker "${chunker.language}" returned ${typeof raw} for ${filePath}; chunk() must resolve to an array of chunks`);
  }
  return raw.map((item, i) => {
    const legacy = item && typeof item === "object" && "metadata" in item ? (item as LegacyChunk) : null;
    const flat = (legacy ? { ...legacy.metadata, content: legacy.content } : item) as Partial<Chunk> & { type?: string; name?: string };
    const content = flat?.content;
    if (typeof content !== "string") {
      throw new Error(`chunker "${chunker.language}" chunk ${i} for ${filePath} has no string content`);
    }
    const startLine = Number.isInteger(flat.startLine) && (flat.startLine as number) > 0 ? (flat.startLine as number) : 1;
    const lineCount = content.split("\n").length;
    const endLine = Number.isInteger(flat.endLine) && (flat.endLine as number) >= startLine ? (flat.endLine as number) : startLine + lineCount - 1;
    return {
      filePath,
      startLine,
      endLine,
      language: flat.language || chunker.language,
      kind: flat.kind || flat.type || "block",
      symbol: flat.symbol ?? flat.name ?? "",
      context: flat.context ?? "",
      content,
    };
  });
}
