// The core's portable search path as one browser module (F35): tree-sitter chunking with the
// same grammar files, the in-memory vector store, the BM25 keyword index, hybrid ranking and
// the bundled model computed from its table (no runtime). Built to dist/web/ by esbuild.config.mjs, which fails
// the build if anything here reaches a Node built-in.
import { BUNDLED_MODEL_ID, DEFAULT_CONFIG } from "../config/defaults.js";
import { chunkFile, embeddingText, languageForPath, setGrammarSource } from "../chunking/index.js";
import { createBrowserEmbedder, type BrowserEmbedderOptions } from "../embedding/browser.js";
import { KeywordIndex } from "../keyword/keyword-index.js";
import { keywordDocOf } from "../keyword/keyword-doc.js";
import { hybridSearch } from "../retrieval/hybrid.js";
import { searchText } from "../retrieval/query-analysis.js";
import { contentLines, previewWindow, type LineWindow } from "../retrieval/preview-window.js";
import { MemoryVectorStore } from "../store/memory.js";
import { fnv1aHex } from "../text-hash.js";
import { looksLikeSecretContent, SECRET_REASON, secretFileRules } from "../files/secret-files.js";
import { redactChunk } from "../redact.js";
import type { Chunk, ChunkRecord, EmbeddingProvider, SearchFilter, SearchResult } from "../types.js";

export { chunkFile, embeddingText, languageForPath, createBrowserEmbedder, BUNDLED_MODEL_ID, DEFAULT_CONFIG, contentLines, previewWindow };
export type { Chunk, ChunkRecord, SearchResult, LineWindow };

export interface WebSearchOptions {
  /** URL folder with tree-sitter.wasm and the grammar files (dist/grammars/). */
  grammarsUrl: string;
  /** Embedding model; omit to search keywords only. */
  model?: BrowserEmbedderOptions;
  chunking?: Partial<typeof DEFAULT_CONFIG.chunking>;
}

export interface WebFile {
  /** Path relative to the dropped folder, forward slashes. */
  path: string;
  text: string;
}

export interface IndexProgress {
  filesDone: number;
  filesTotal: number;
  chunks: number;
}

/** Points the chunker at grammar files served over HTTP. */
export function useGrammarsFrom(grammarsUrl: string): void {
  const base = grammarsUrl.endsWith("/") ? grammarsUrl : grammarsUrl + "/";
  setGrammarSource(async (file) => {
    const res = await fetch(base + file);
    if (!res.ok) throw new Error(`grammar ${file} not found at ${base} (HTTP ${res.status})`);
    return new Uint8Array(await res.arrayBuffer());
  });
}

/** A short stable id for a chunk: path, range and text. */
function chunkId(c: Chunk): string {
  return `${fnv1aHex(`${c.filePath}\n${c.startLine}\n${c.endLine}\n${c.content}`)}-${c.startLine}`;
}

export class WebSearch {
  private readonly store: MemoryVectorStore;
  private readonly keyword = new KeywordIndex();
  private files = 0;

  private constructor(
    private readonly embedder: EmbeddingProvider | null,
    dimension: number | null,
    private readonly chunking: typeof DEFAULT_CONFIG.chunking,
  ) {
    this.store = new MemoryVectorStore(dimension);
  }

  static async create(o: WebSearchOptions): Promise<WebSearch> {
    useGrammarsFrom(o.grammarsUrl);
    const embedder = o.model ? await createBrowserEmbedder(o.model) : null;
    const dimension = embedder ? await embedder.dimension() : null;
    return new WebSearch(embedder, dimension, { ...DEFAULT_CONFIG.chunking, ...(o.chunking ?? {}) });
  }

  get fileCount(): number {
    return this.files;
  }

  get chunkCount(): number {
    return this.keyword.size;
  }

  get semantic(): boolean {
    return this.embedder !== null;
  }

  /**
   * Chunks, embeds and indexes files; a file that fails to chunk is reported and skipped, and so
   * is a credential file (the same default list as the indexer's). Chunk text is redacted.
   */
  async addFiles(files: WebFile[], onProgress?: (p: IndexProgress) => void): Promise<{ errors: Array<{ path: string; error: string }> }> {
    const errors: Array<{ path: string; error: string }> = [];
    const secrets = secretFileRules(DEFAULT_CONFIG.indexing);
    let done = 0;
    for (const f of files) {
      let chunks: Chunk[] = [];
      try {
        if (secrets.isSecretPath(f.path) || looksLikeSecretContent(f.text)) throw new Error(`${SECRET_REASON}: a credential file, never indexed`);
        chunks = (await chunkFile(f.path, f.text, this.chunking)).map(redactChunk);
      } catch (err) {
        errors.push({ path: f.path, error: (err as Error).message });
      }
      if (chunks.length > 0) {
        const records: ChunkRecord[] = chunks.map((c) => {
          const id = chunkId(c);
          return { ...c, id, contentHash: id, description: "" };
        });
        const vectors = this.embedder ? await this.embedder.embed(records.map((r) => embeddingText(r)), "document") : null;
        await this.store.add(records.map((r, i) => ({ ...r, vector: vectors ? vectors[i] : null })));
        this.keyword.add(records.map((r, i) => keywordDocOf(r, embeddingText(r), vectors ? vectors[i] : null)));
        this.files++;
      }
      done++;
      onProgress?.({ filesDone: done, filesTotal: files.length, chunks: this.keyword.size });
    }
    return { errors };
  }

  async search(query: string, topK = 10, filter?: SearchFilter): Promise<SearchResult[]> {
    const queryVector = this.embedder && query.trim() ? (await this.embedder.embed([searchText(query)], "query"))[0] : null;
    return hybridSearch({
      query,
      queryVector,
      store: this.store,
      keyword: this.keyword,
      topK,
      minScore: 0,
      filter,
      mode: queryVector ? "hybrid" : "keyword",
      rank: true,
      embedder: this.embedder,
    });
  }
}
