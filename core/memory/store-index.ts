// The searchable copy of quirks: rows of kind "quirk" in the `quirks` table of the workspace's
// vector store (beside the code's table, so index passes — their checkpoints, row counts and
// rollbacks — never see them) and a keyword index of the same BM25 class, rebuilt from the audit
// log on every replay. Recall is the same hybrid search as code.
import { KeywordIndex } from "../keyword/keyword-index.js";
import { hybridSearch } from "../retrieval/hybrid.js";
import { searchText } from "../retrieval/query-analysis.js";
import { fnv1aHex } from "../text-hash.js";
import type { ChunkRecord, EmbeddingProvider, StoreRow, VectorStore } from "../types.js";
import type { Quirk, QuirkIndex } from "./quirks.js";

export const QUIRK_KIND = "quirk";
const QUIRK_FILTER = { kinds: [QUIRK_KIND] };

/** Quirk rows carry a pseudo path so path-prefix filters on code never match them. */
export function quirkFilePath(id: string): string {
  return `quirk:${id}`;
}

function quirkText(q: Quirk): string {
  return [q.content, q.tags.length ? `tags: ${q.tags.join(", ")}` : "", `type: ${q.type}`].filter(Boolean).join("\n");
}

function toRecord(q: Quirk): ChunkRecord {
  const content = quirkText(q);
  return {
    id: q.id,
    filePath: quirkFilePath(q.id),
    startLine: 1,
    endLine: content.split("\n").length,
    language: "text",
    kind: QUIRK_KIND,
    symbol: q.type,
    context: q.tags.join(", "),
    content,
    contentHash: fnv1aHex(content),
    description: "",
  };
}

export interface StoreQuirkIndexDeps {
  /** The workspace's store as search uses it (opened lazily). */
  store: () => Promise<VectorStore>;
  /** The embedding provider, or null when search is keyword-only. */
  embedder: () => Promise<EmbeddingProvider | null>;
}

export class StoreQuirkIndex implements QuirkIndex {
  private keyword = new KeywordIndex();

  constructor(private readonly deps: StoreQuirkIndexDeps) {}

  private async rows(quirks: Quirk[]): Promise<StoreRow[]> {
    const records = quirks.map(toRecord);
    const embedder = await this.deps.embedder();
    const vectors = embedder && records.length ? await embedder.embed(records.map((r) => r.content), "document") : null;
    return records.map((r, i) => ({ ...r, vector: vectors ? vectors[i] : null }));
  }

  private keywordAdd(quirks: Quirk[]): void {
    this.keyword.removeIds(quirks.map((q) => q.id));
    this.keyword.add(
      quirks.map((q) => {
        const r = toRecord(q);
        return { id: r.id, text: r.content, filePath: r.filePath, language: r.language, kind: r.kind, symbol: r.symbol };
      }),
    );
  }

  async sync(quirks: Quirk[]): Promise<number> {
    this.keyword = new KeywordIndex();
    this.keywordAdd(quirks);
    if (quirks.length === 0) return 0;
    const store = await this.deps.store();
    const present = new Set((await store.getByIds(quirks.map((q) => q.id))).map((r) => r.id));
    const missing = quirks.filter((q) => !present.has(q.id));
    if (missing.length > 0) await store.add(await this.rows(missing));
    return missing.length;
  }

  async upsert(quirks: Quirk[]): Promise<void> {
    if (quirks.length === 0) return;
    const store = await this.deps.store();
    const rows = await this.rows(quirks);
    await store.deleteByIds(quirks.map((q) => q.id));
    await store.add(rows);
    this.keywordAdd(quirks);
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    this.keyword.removeIds(ids);
    await (await this.deps.store()).deleteByIds(ids);
  }

  async search(query: string, topK: number): Promise<Array<{ id: string; score: number }>> {
    if (this.keyword.size === 0) return [];
    const store = await this.deps.store();
    const embedder = await this.deps.embedder();
    const queryVector = embedder ? (await embedder.embed([searchText(query)], "query"))[0] : null;
    const results = await hybridSearch({
      query,
      queryVector,
      store,
      keyword: this.keyword,
      topK,
      minScore: 0,
      filter: QUIRK_FILTER,
      mode: queryVector ? "hybrid" : "keyword",
      rank: false,
    });
    return results.map((r) => ({ id: r.chunk.id, score: r.score }));
  }
}
