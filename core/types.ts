// The domain vocabulary shared by every part of the core. Plug points are interfaces
// (Chunker, EmbeddingProvider, VectorStore, KeywordIndex, ChatClient) so that hosts and tests
// can swap implementations without touching the indexer or the retriever.

/** What kind of unit a chunk is. Open-ended: custom chunkers may use their own kinds. */
export type ChunkKind =
  | "function"
  | "method"
  | "constructor"
  | "class"
  | "object"
  | "interface"
  | "type"
  | "enum"
  | "struct"
  | "trait"
  | "impl"
  | "protocol"
  | "extension"
  | "module"
  | "namespace"
  | "record"
  | "macro"
  | "property"
  | "variable"
  | "rule"
  | "script"
  | "style"
  | "key"
  | "element"
  | "section"
  | "heading"
  | "block"
  | "preamble"
  | "paragraph"
  | "lines"
  | "image"
  | "quirk"
  | (string & {});

/**
 * Kinds that take parameters (a C function-like macro's too): a context names them with their
 * parameters (`macro listFirst(l)`), and a short one is a whole unit, not a leftover.
 */
export const CALLABLE_KINDS: ReadonlySet<string> = new Set(["function", "method", "constructor", "macro"]);

/** A contiguous, self-contained span of one file, as produced by a chunker. */
export interface Chunk {
  /** Workspace-relative path with forward slashes. */
  filePath: string;
  /** 1-based, inclusive. */
  startLine: number;
  /** 1-based, inclusive. */
  endLine: number;
  language: string;
  kind: ChunkKind;
  /** The declared name, e.g. `bar` for a method `bar`; empty when the unit has none. */
  symbol: string;
  /** Enclosing context that makes the chunk readable on its own, e.g. `class Foo > method bar(a, b)`. */
  context: string;
  /** The exact source text of lines startLine..endLine. */
  content: string;
}

/** A chunker turns one file's text into chunks. Built-in and user chunkers implement it. */
export interface Chunker {
  readonly language: string;
  readonly fileExtensions?: readonly string[];
  chunk(filePath: string, content: string): Promise<Chunk[]>;
}

/** A chunk as the store keeps it. */
export interface ChunkRecord extends Chunk {
  /** Stable id: derived from file path, line range and content hash. */
  id: string;
  /** Hash of the embedded text; the embedding cache key together with the model id. */
  contentHash: string;
  /** Optional LLM-written description (F14), embedded with the chunk. */
  description: string;
}

/** Whether a text is a document being indexed or a query; some models embed them differently. */
export type EmbedPurpose = "document" | "query";

export interface EmbeddingProvider {
  /** Provider name as in config: "local", "ollama", "openai" ("none" has no provider). */
  readonly provider: string;
  /** Model id as in config. */
  readonly model: string;
  /** Identifies the weights behind the id (e.g. a hash of the model files), when known. */
  readonly fingerprint?: string;
  /**
   * Its vectors cost less to compute again than to keep a second copy of (a local static
   * model, thousands of chunks a second): an index keeps no embedding cache for it and takes
   * a moved chunk's vector from the row it replaces instead, and a search may embed a few
   * short texts with it besides the query (its best candidates' names, `hybrid.ts`). Remote
   * models leave it unset.
   */
  readonly cheapToRecompute?: boolean;
  /** Vector length; probed on first use for remote providers. */
  dimension(): Promise<number>;
  /** Embeds texts in order; vectors are L2-normalised. */
  embed(texts: string[], purpose: EmbedPurpose): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

/** Filters every retrieval path understands. */
export interface SearchFilter {
  /** Path prefixes (workspace-relative, forward slashes); a chunk matches if any prefix matches. */
  pathPrefixes?: string[];
  /** Language names; a chunk matches if its language is one of them. */
  languages?: string[];
  /** Chunk kinds to include; when absent, every kind except `quirk`. */
  kinds?: string[];
}

export interface ScoredId {
  id: string;
  /** Higher is better; each source documents its own scale. */
  score: number;
  /** The hit's file, where the source knows it without the record (the keyword index does). */
  filePath?: string;
  /**
   * Where the hit's row likely lies in the store's table, where the source can tell (the keyword
   * index numbers its documents as a commit laid the rows out): a hint the store checks by id.
   */
  row?: number;
}

/** A stored vector with what it was computed from: its row's content hash and description. */
export interface StoredVector {
  contentHash: string;
  description: string;
  vector: Float32Array;
}

/** A chunk as a store keeps it: its record and its vector (null when embedding failed or there is no model). */
export type StoreRow = ChunkRecord & { vector: Float32Array | null };

/** Vector storage. LanceDB on disk (Node) and in memory (tests, browser) implement it. */
export interface VectorStore {
  /** Number of rows, all kinds. */
  count(): Promise<number>;
  add(rows: StoreRow[]): Promise<void>;
  deleteByFilePaths(filePaths: string[]): Promise<void>;
  deleteByIds(ids: string[]): Promise<void>;
  /** Nearest neighbours by cosine similarity; score in [0,1]. */
  searchVector(vector: Float32Array, topK: number, filter?: SearchFilter): Promise<ScoredId[]>;
  /**
   * The records of these ids (unknown ones left out). `rows`, where given, is each id's likely
   * row in the table (ScoredId.row; -1 where unknown): a store may read those rows directly,
   * and must still return exactly the records of `ids`.
   */
  getByIds(ids: string[], rows?: number[]): Promise<ChunkRecord[]>;
  /**
   * The vectors of these rows (rows without one, and unknown ids, are left out): an index
   * pass re-uses them for new chunks with the same embedded text, e.g. lines that only moved.
   */
  vectorsByIds?(ids: string[]): Promise<StoredVector[]>;
  /** Every row's id, file path and content hash, for rebuilding derived indexes. */
  listAll(): Promise<Array<Pick<ChunkRecord, "id" | "filePath" | "contentHash">>>;
  /** A point the store can be rolled back to after an interrupted pass. */
  checkpoint(): Promise<number>;
  rollbackTo(checkpoint: number): Promise<void>;
  clear(): Promise<void>;
  close(): Promise<void>;
  /**
   * A read-only view of the store as it was at `checkpoint`, unaffected by later writes: what
   * searches read while a pass (a rebuild above all) writes the next version. Closing the view
   * leaves the store open. Throws when that version is gone.
   */
  snapshot?(checkpoint: number): Promise<VectorStore>;
}

/** A retrieval hit as hosts see it. */
export interface SearchResult {
  chunk: ChunkRecord;
  /** In [0,1], higher is better. */
  score: number;
  /**
   * Set when the file is not the project's own hand-written code (`core/path-class.ts`):
   * `generated` (by its path or its generator's mark: a change belongs in the generator's
   * input) or `vendored` (another project's copy).
   */
  origin?: "generated" | "vendored";
}

// The chat model behind chunk and image descriptions and quirk capture (core/description/llm.ts).

export interface LlmImage {
  mime: string;
  base64: string;
}

export interface LlmMessage {
  role: "system" | "user" | "assistant";
  text: string;
  images?: LlmImage[];
}

export interface LlmAnswer {
  text: string;
  /** Prompt + completion tokens as reported by the server, or estimated (4 characters a token). */
  tokens: number;
}

export interface ChatClient {
  readonly provider: string;
  readonly baseUrl: string;
  chat(model: string, messages: LlmMessage[], maxTokens: number): Promise<LlmAnswer>;
  close(): Promise<void>;
}
