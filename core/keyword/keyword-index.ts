// BM25 inverted index over chunks, with field boosts for symbol names and file paths.
// Portable: no Node built-ins. See README.md in this folder for the design.
import type { ScoredId, SearchFilter } from "../types.js";
import { compileFilter, pathPrefixesOf, type FilterableChunk } from "../store/filter.js";
import { boundedMemo } from "../bounded-memo.js";
import { DocIds } from "./doc-ids.js";
import { Interner } from "./interner.js";
import { CorruptKeywordData, corruptKeywordData } from "./corrupt.js";
import type { ByteSink } from "./bytes.js";
import { withRoom, type DocColumn } from "./doc-columns.js";
import { readParts, writePartsSteps, type IndexParts, type LoadedParts } from "./keyword-format.js";
import { CsrPostings, DeltaPostings, EncodedPostings, mergePostingsSteps, TERMS_PER_STEP, type EnsureBytes } from "./postings.js";
import { TermTable } from "./term-table.js";
import { TopK } from "./top-k.js";
import { VectorCodes } from "./vector-codes.js";
import { declaredNameKeys, forEachIdentifier, identifierTokens, normaliseTerm, tokenizeCode, tokenizePath } from "./tokenize.js";
import { inBlocks, runAtOnce, runInSlices, type Steps } from "../yield.js";

/** What the index needs of a chunk: the text to match and the fields filters look at. */
export interface KeywordDoc {
  id: string;
  /** Text to index: the chunk's content (and whatever context the indexer wants matched). */
  text: string;
  filePath: string;
  language: string;
  kind: string;
  symbol: string;
  /** The names the chunk declares (its symbol's, and those it assigns at module level: keyword-doc.ts): a symbol search finds them by name, however common its words. */
  declares?: readonly string[];
  /** The chunk's embedding, kept as 4-bit codes for vector search (vector-codes.ts); none for keyword-only indexes. */
  vector?: ArrayLike<number> | null;
}

/** BM25 saturation and length normalisation: the usual values, which suit code chunks well. */
const K1 = 1.2;
/** Also the default of `fileScores` (file-level BM25), which ranking uses as is. */
export const BM25_B = 0.75;
const B = BM25_B;
/**
 * Field weights, folded into term frequency (a light BM25F): a term in the chunk's symbol
 * name counts as three occurrences, one in its file path as two. A query naming a function
 * or a file then ranks that chunk above chunks that merely mention it.
 */
const SYMBOL_WEIGHT = 3;
const PATH_WEIGHT = 2;
/**
 * Terms that record a declaration rather than a word: the prefix and a name's key ("=zoderror").
 * No token of text or query starts with it, so only `search`'s `declares` reaches them.
 */
const DECLARATION_TERM = "=";
/**
 * Declarations of a name the query asks for that join the best `topK` although BM25 ranks them
 * lower: in a large code base a hundred chunks using a common name (`Transaction`) outscore
 * the class that declares it. The best of them by BM25, so a name declared everywhere
 * (`init`) adds a few.
 */
export const DECLARATIONS_JOINING = 10;
/** Term frequencies are stored in one byte: BM25 has long saturated before 255 (weighted) occurrences. */
const MAX_TF = 0xff;
/** Maps "share of the query covered" onto [0,1) without ties at the top (see search()). */
const SCORE_STEEPNESS = 1.2;

/** Up to this many ids, a loaded index finds documents by a pass over its packed ids rather than a map of them all. */
const FIND_WITHOUT_MAP = 4096;

/** Identifiers whose term ids add() remembers at most (about 5 MB). */
const MAX_REMEMBERED_IDENTIFIERS = 30_000;

/**
 * Inverted index in two parts, like a tiny LSM tree:
 *  - base: immutable compressed-sparse-row arrays (term → doc numbers and term frequencies),
 *    compact in memory and loaded straight from the serialized form;
 *  - delta: postings added since the last merge, in small per-term arrays.
 * Removal marks a doc dead; merge() drops dead docs and folds the delta into a new base.
 */
export class KeywordIndex {
  // Term dictionary. Term ids are stable for the life of the object: merge() never renumbers.
  private terms = new TermTable();
  /**
   * Full term → id map. Null after deserialize(): building it costs more than all the rest of
   * loading, and a search needs only a few lookups (binary search in sortedTerms). A large
   * add() builds it.
   */
  private termIds: Map<string, number> | null = new Map();
  /** Terms created while termIds is null (small adds to a loaded index). */
  private newTermIds = new Map<string, number>();
  /**
   * Ids of the terms [0, sortedCount), in string order; maintained by merge(). Null while the
   * ids themselves are in string order (a loaded index's: filling 300k ids in a fresh process
   * cost ~8 ms of a one-off query).
   */
  private sortedTerms: Uint32Array | null = new Uint32Array(0);
  private sortedCount = 0;
  // Base postings of terms [0, base.termCount): decoded arrays once merged, the file's bytes
  // (read a term at a time) after a load until the next merge.
  private base: CsrPostings | EncodedPostings = CsrPostings.empty();
  // Postings added since the last merge.
  private delta = new DeltaPostings();
  // Documents, by internal doc number.
  private docIds = new DocIds();
  // Plain arrays once add() has run; a loaded index's are typed views of its file (doc-columns.ts).
  private docLens: DocColumn = [];
  private docPath: DocColumn = [];
  private docLang: DocColumn = [];
  private docKind: DocColumn = [];
  // id → document number, built on first use after a load or a merge: a process that only
  // searches (a one-off query, a serving host) never needs it (~45 ms and 8 MB at 100k chunks).
  private idToDocMap: Map<string, number> | null = new Map();
  private liveDocs = 0;
  private liveLenSum = 0;
  // Interned metadata values.
  private paths = new Interner();
  private languages = new Interner();
  private kinds = new Interner();
  /** Every document's vector as 4-bit codes, by document number (vector search scans them). */
  private vectors = new VectorCodes();
  /** Per-file lengths and chunk counts for fileScores() and fileSizes(); dropped whenever documents come or go. */
  private fileLens: FileLengths | null = null;
  // Per-query scratch, reused so a query costs only the postings it touches.
  private scratch = new Float64Array(0);
  // Per-document term-frequency scratch (by term id), reused across add() calls.
  private tfScratch = new Uint32Array(1024);
  /**
   * An identifier's term ids, remembered for add(): code repeats its names, and tokenizing,
   * normalising and looking up each occurrence was most of the time of add(). Term ids never
   * change for the life of the index.
   */
  private termIdsOfIdentifier = boundedMemo((identifier: string): readonly number[] => identifierTokens(identifier).map((token) => this.termIdOf(normaliseTerm(token))), MAX_REMEMBERED_IDENTIFIERS);

  /**
   * How many times merge() has folded changes into the base. A process whose replay of the
   * deltas merges decodes every posting first, so the indexer writes a snapshot instead of a
   * delta that would (core/indexing/pass-keywords.ts).
   */
  get merges(): number {
    return this.mergeCount;
  }
  private mergeCount = 0;

  get size(): number {
    return this.liveDocs;
  }

  /** Adds documents; a document whose id is already present replaces the old one. */
  add(docs: KeywordDoc[]): void {
    this.fileLens = null;
    if (this.termIds === null && (docs.length > 256 || this.newTermIds.size > 20_000)) this.buildTermMap();
    // A few documents added to a loaded index (a keyword delta file) find the ids they replace
    // without a map of every id.
    const known = this.findsWithoutMap(docs.length) ? this.docIds.find(docs.map((d) => d.id)) : null;
    const used = this.docIds.count;
    const room = used + docs.length;
    const docLens = (this.docLens = withRoom(this.docLens, used, room));
    const docPath = (this.docPath = withRoom(this.docPath, used, room));
    const docLang = (this.docLang = withRoom(this.docLang, used, room));
    const docKind = (this.docKind = withRoom(this.docKind, used, room));
    for (const doc of docs) {
      checkDoc(doc);
      const existing = known ? known.get(doc.id) : this.idToDoc.get(doc.id);
      if (existing !== undefined) this.kill(existing);
      const docNo = this.docIds.count;
      // Term frequencies accumulate in a scratch array indexed by term id: no per-document map.
      const touched: number[] = [];
      forEachIdentifier(doc.text, (identifier) => {
        for (const termId of this.termIdsOfIdentifier(identifier)) this.countTerm(termId, 1, touched);
      });
      if (doc.symbol) this.countTokens(tokenizeCode(doc.symbol), SYMBOL_WEIGHT, touched);
      this.countTokens(tokenizePath(doc.filePath), PATH_WEIGHT, touched);
      let len = 0;
      const tfs = this.tfScratch;
      for (const termId of touched) {
        const tf = Math.min(tfs[termId], MAX_TF);
        tfs[termId] = 0;
        len += tf;
        this.pushPosting(termId, docNo, tf);
      }
      // Declarations are postings, not words: they leave the document's length alone.
      const declared = this.declarationTermIds(doc.declares);
      for (const termId of declared) this.pushPosting(termId, docNo, 1);
      this.docIds.push(doc.id);
      docLens[docNo] = len;
      docPath[docNo] = this.paths.intern(doc.filePath);
      docLang[docNo] = this.languages.intern(doc.language);
      docKind[docNo] = this.kinds.intern(doc.kind);
      if (doc.vector || this.vectors.dim > 0) this.vectors.set(docNo, doc.vector);
      if (known) known.set(doc.id, docNo);
      else this.idToDoc.set(doc.id, docNo);
      this.liveDocs++;
      this.liveLenSum += len;
    }
    // Delta postings cost 9 bytes each against 5 in the base, and a search groups them by term:
    // keep the delta under a quarter of the base. Each merge copies the base, so building from
    // scratch copies about five times the final size in all.
    if (this.delta.size > Math.max(200_000, this.basePostingTotal() / 4)) this.merge();
  }

  /**
   * Applies keyword delta files' changes in their order, each one's removals before its
   * additions, finding the ids they touch among the loaded ones in one pass.
   */
  replay(deltas: ReadonlyArray<{ remove: readonly string[]; add: KeywordDoc[] }>): void {
    if (this.idToDocMap === null) this.docIds.lookAhead(deltas.flatMap((d) => [...d.remove, ...d.add.map((doc) => doc.id)]));
    for (const delta of deltas) {
      this.removeIds(delta.remove);
      this.add(delta.add);
    }
  }

  removeIds(ids: readonly string[]): void {
    const known = this.findsWithoutMap(ids.length) ? this.docIds.find(ids) : this.idToDoc;
    for (const id of ids) {
      const docNo = known.get(id);
      if (docNo !== undefined) this.kill(docNo);
    }
    const dead = this.docIds.count - this.liveDocs;
    if (dead > 1000 && dead > this.docIds.count / 4) this.merge();
  }

  /** Removes every document of these files (the indexer's unit of change). */
  removeFilePaths(filePaths: string[]): void {
    const wanted = new Set<number>();
    for (const p of filePaths) {
      const n = this.paths.lookup(p);
      if (n !== undefined) wanted.add(n);
    }
    if (wanted.size === 0) return;
    const ids: string[] = [];
    const docIds = this.docIds.all();
    for (let d = 0; d < docIds.length; d++) {
      const id = docIds[d];
      if (id !== null && wanted.has(this.docPath[d])) ids.push(id);
    }
    this.removeIds(ids);
  }

  has(id: string): boolean {
    return this.idToDoc.has(id);
  }

  /** Every live document id (for checking the index against the store). */
  ids(): string[] {
    return [...this.idToDoc.keys()];
  }

  /**
   * Best `topK` documents for `query`, best first. Scores are in [0,1): BM25 divided by the
   * query's weight (the score of a document holding every query term once at average length),
   * then squashed by 1 − e^(−1.2·r). A document holding the whole query once scores 0.70, half
   * of the query's (rarity-weighted) terms 0.45, the whole query many times up to ~0.93; the
   * order is exactly BM25's.
   */
  search(query: string, topK: number, filter?: SearchFilter, declares: Iterable<string> = []): ScoredId[] {
    if (topK <= 0 || this.liveDocs === 0) return [];
    const termIds = this.queryTermIds(query);
    const declaring = this.docsDeclaring(declares);
    if (termIds.length === 0 && !declaring) return [];
    const joining = declaring ? new TopK(DECLARATIONS_JOINING) : null;

    if (this.scratch.length < this.docIds.count) this.scratch = new Float64Array(Math.max(this.docIds.count, this.scratch.length * 2));
    const scores = this.scratch;
    const touched: number[] = [];
    const n = this.liveDocs;
    const avgLen = this.liveLenSum / n || 1;
    const { docLens, docIds } = this;
    const allLive = this.noneRemoved;
    let queryWeight = 0;
    for (const termId of termIds) {
      // Postings of removed documents linger until the next merge: never count more than live docs.
      const df = Math.min(this.postingCount(termId), n);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      queryWeight += idf;
      const visit = (doc: number, tf: number) => {
        if (!allLive && !docIds.isLive(doc)) return;
        const norm = K1 * (1 - B + (B * docLens[doc]) / avgLen);
        const s = (idf * tf * (K1 + 1)) / (tf + norm);
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] += s;
      };
      this.forEachPosting(termId, visit);
    }

    const accept = this.compileDocFilter(filter);
    const heap = new TopK(topK);
    // A name no word of the query finds (one letter, `g`, is no indexed word): its declarations
    // join scored as a chunk holding the whole query once would be (0.70).
    if (declaring && termIds.length === 0) {
      for (const doc of declaring) if ((allLive || docIds.isLive(doc)) && joining!.wouldAccept(1) && accept(doc)) joining!.push(doc, 1);
    }
    for (const doc of touched) {
      const s = scores[doc];
      scores[doc] = 0;
      const joins = declaring?.has(doc) && joining!.wouldAccept(s);
      if (!heap.wouldAccept(s) && !joins) continue;
      if (!accept(doc)) continue;
      if (heap.wouldAccept(s)) heap.push(doc, s);
      if (joins) joining!.push(doc, s);
    }
    const weight = queryWeight > 0 ? queryWeight : 1;
    const best = heap.sorted();
    if (joining) {
      const inBest = new Set(best.map(([doc]) => doc));
      for (const entry of joining.sorted()) if (!inBest.has(entry[0])) best.push(entry);
      best.sort((a, b) => b[1] - a[1]);
    }
    return best.map(([doc, s]) => this.hit(doc, 1 - Math.exp(-SCORE_STEEPNESS * (s / weight))));
  }

  /** Documents declaring one of the names (by `nameKey`), or null when none is asked for or known. */
  private docsDeclaring(keys: Iterable<string>): Set<number> | null {
    let docs: Set<number> | null = null;
    for (const key of keys) {
      const termId = this.lookupTerm(DECLARATION_TERM + key);
      if (termId === undefined) continue;
      docs ??= new Set();
      this.forEachPosting(termId, (doc) => docs!.add(doc));
    }
    return docs;
  }

  /**
   * BM25 of whole files for `query`, for the files named (a file is the sum of its chunks'
   * term frequencies and lengths; `b` normalises by file length against the mean file), scaled
   * like search() by the query's weight into [0,1). How well a file as a whole matches,
   * whatever number of chunks it was cut into.
   */
  fileScores(query: string, files: Iterable<string>, b = B): Map<string, number> {
    const out = new Map<string, number>();
    const wanted = new Map<number, string>();
    for (const f of files) {
      const n = this.paths.lookup(f);
      if (n !== undefined) wanted.set(n, f);
    }
    const termIds = this.queryTermIds(query);
    if (termIds.length === 0 || wanted.size === 0 || this.liveDocs === 0) return out;
    const { lens, count } = this.fileLengths();
    const avg = this.liveLenSum / Math.max(1, count) || 1;
    const pathCount = this.paths.size;
    const seenIn = new Int32Array(pathCount).fill(-1);
    const isWanted = new Uint8Array(pathCount);
    for (const p of wanted.keys()) isWanted[p] = 1;
    const tf = new Float64Array(pathCount);
    const score = new Map<number, number>();
    const { docPath, docIds } = this;
    const allLive = this.noneRemoved;
    let queryWeight = 0;
    termIds.forEach((termId, t) => {
      // One walk over the postings: the wanted files' frequencies, and in how many files the term is.
      let df = 0;
      const touched: number[] = [];
      const visit = (doc: number, f: number) => {
        if (!allLive && !docIds.isLive(doc)) return;
        const p = docPath[doc];
        if (seenIn[p] !== t) {
          seenIn[p] = t;
          df++;
          if (isWanted[p]) touched.push(p);
        }
        if (isWanted[p]) tf[p] += f;
      };
      this.forEachPosting(termId, visit);
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      queryWeight += idf;
      for (const p of touched) {
        const norm = K1 * (1 - b + (b * lens[p]) / avg);
        score.set(p, (score.get(p) ?? 0) + (idf * tf[p] * (K1 + 1)) / (tf[p] + norm));
        tf[p] = 0;
      }
    });
    const weight = queryWeight > 0 ? queryWeight : 1;
    for (const [p, s] of score) out.set(wanted.get(p)!, 1 - Math.exp(-SCORE_STEEPNESS * (s / weight)));
    return out;
  }

  /**
   * Each named file's number of chunks over the mean file's: how big a file is against the rest
   * of this index. Files it does not hold are left out.
   */
  fileSizes(files: Iterable<string>): Map<string, number> {
    const out = new Map<string, number>();
    if (this.liveDocs === 0) return out;
    const { chunks, chunkSum, count } = this.fileLengths();
    const mean = chunkSum / Math.max(1, count);
    for (const f of files) {
      const p = this.paths.lookup(f);
      if (p !== undefined && chunks[p] > 0) out.set(f, chunks[p] / mean);
    }
    return out;
  }

  /**
   * Whether every numbered document is live (a loaded index without removals: every one-off
   * search's), so loops over postings or documents need not ask each one.
   */
  private get noneRemoved(): boolean {
    return this.liveDocs === this.docIds.count;
  }

  /**
   * Each file's length (the sum of its live chunks' lengths), its number of chunks, and how many
   * files have one; one walk over the documents, cached until the index changes.
   */
  private fileLengths(): FileLengths {
    if (this.fileLens && this.fileLens.lens.length === this.paths.size) return this.fileLens;
    const lens = new Uint32Array(this.paths.size);
    const chunks = new Uint32Array(this.paths.size);
    const { docIds, docPath, docLens } = this;
    const docs = docIds.count;
    const live = this.noneRemoved ? null : docIds;
    let count = 0;
    for (let d = 0; d < docs; d += FILE_LENGTH_BLOCK) count += addFileLengths(lens, chunks, docPath, docLens, live, d, Math.min(docs, d + FILE_LENGTH_BLOCK));
    let chunkSum = 0;
    for (const c of chunks) chunkSum += c;
    this.fileLens = { lens, chunks, chunkSum, count };
    return this.fileLens;
  }

  /** Distinct term ids of the query's tokens that the index knows. */
  private queryTermIds(query: string): number[] {
    const termIds: number[] = [];
    const seen = new Set<number>();
    for (const token of tokenizeCode(query)) {
      const termId = this.lookupTerm(normaliseTerm(token));
      if (termId !== undefined && !seen.has(termId)) {
        seen.add(termId);
        termIds.push(termId);
      }
    }
    return termIds;
  }

  /**
   * The filter as a predicate on document numbers. While the paths are as loaded (in string
   * order), a path prefix is a range of path numbers, so no path is decoded to test it.
   */
  private compileDocFilter(filter?: SearchFilter): (doc: number) => boolean {
    const view = this.filterView();
    const prefixes = pathPrefixesOf(filter);
    const ranges = prefixes.length > 0 ? this.paths.prefixRanges(prefixes) : null;
    const accept = compileFilter(ranges ? { ...filter, pathPrefixes: undefined } : filter);
    return (doc) => {
      if (ranges) {
        const p = this.docPath[doc];
        if (!ranges.some(([from, to]) => p >= from && p < to)) return false;
      }
      view.doc = doc;
      return accept(view);
    };
  }

  /**
   * What a filter looks at of a document, as one object a search moves from document to
   * document (no allocation per candidate); the path is decoded only if the filter asks for it.
   */
  private filterView(): FilterableChunk & { doc: number } {
    const index = this;
    return {
      doc: 0,
      get filePath() {
        return index.paths.value(index.docPath[this.doc]);
      },
      get language() {
        return index.languages.value(index.docLang[this.doc]);
      },
      get kind() {
        return index.kinds.value(index.docKind[this.doc]);
      },
    };
  }

  /** Length of the vectors the index keeps (0: none, a keyword-only index). */
  get vectorDimension(): number {
    return this.vectors.dim;
  }

  /**
   * The `topK` documents nearest to `vector` (cosine similarity in [0,1]), best first: an exact
   * scan of every document's 4-bit codes, filtered like search().
   */
  searchVector(vector: ArrayLike<number>, topK: number, filter?: SearchFilter): ScoredId[] {
    if (topK <= 0 || this.liveDocs === 0) return [];
    const accept = this.compileDocFilter(filter);
    const hits = this.vectors.search(vector, topK, (doc) => this.docIds.isLive(doc) && accept(doc));
    return hits.map(([doc, score]) => this.hit(doc, score));
  }

  /**
   * A live document as a search names it: its id, score, file, and row hint (ScoredId.row): a
   * pass commits the table's rows and the index's documents in one order, which the table's
   * deletions and compaction and this index's removals and merge() all keep, so a document's
   * row is its number less the removed documents numbered before it.
   */
  private hit(doc: number, score: number): ScoredId {
    return { id: this.docIds.id(doc) as string, score, filePath: this.paths.value(this.docPath[doc]), row: doc - this.docIds.removedBefore(doc) };
  }

  /** A document's vector as the index keeps it (quantised), or null. */
  vectorOf(id: string): Float32Array | null {
    const doc = this.idToDoc.get(id);
    return doc === undefined ? null : this.vectors.vector(doc);
  }

  /** Compact binary form; see README.md for the layout. */
  serialize(): Uint8Array {
    const chunks: Uint8Array[] = [];
    this.serializeTo((chunk) => chunks.push(chunk));
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  /**
   * The same bytes, handed to `sink` piece by piece (the postings and vector codes as the index
   * holds them): a pass writes a big index to its file without a second copy of it in memory.
   */
  serializeTo(sink: ByteSink): void {
    runAtOnce(this.serializeSteps(sink));
  }

  /**
   * serializeTo() with pauses for the event loop: at 100k files the merge and the writing hold
   * the thread ~1.5 s, and a background pass shares it with its host (OpenCode's server).
   * Searches meanwhile see the index as it was: a merge swaps its new tables in at once.
   * `sliceMs`: how long a slice runs (0: a pause at every step).
   */
  serializeToInSlices(sink: ByteSink, sliceMs?: number): Promise<void> {
    return runInSlices(this.serializeSteps(sink), sliceMs);
  }

  private *serializeSteps(sink: ByteSink): Steps<void> {
    yield* this.mergeSteps();
    const base = yield* this.decodedBaseSteps();
    // Terms in string order (so a loaded index can binary-search them), without dead ones.
    const live: number[] = [];
    yield* inBlocks(this.sortedCount, TERMS_PER_STEP, (from, to) => {
      for (let i = from; i < to; i++) {
        const t = this.sortedTerm(i);
        if (base.count(t) > 0) live.push(t);
      }
    });
    const terms = yield* this.terms.allSteps();
    const parts: IndexParts = {
      docIds: this.docIds.all() as string[], // all live after merge()
      docLens: this.docLens,
      docPath: this.docPath,
      docLang: this.docLang,
      docKind: this.docKind,
      paths: this.paths.values(),
      languages: this.languages.values(),
      kinds: this.kinds.values(),
      terms,
      postings: base,
      vectors: this.vectors.toBytes(),
    };
    yield* writePartsSteps(parts, live, sink);
  }

  /**
   * The index a binary form holds. `ensure` brings in bytes of the file's postings as searches
   * read them, for a file loaded without them (keyword-format.ts readParts); else all must be in `bytes`.
   */
  static deserialize(bytes: Uint8Array, ensure?: EnsureBytes): KeywordIndex {
    try {
      // A plain view of the bytes: a Node Buffer's subarrays are Buffers, whose slice() shares memory.
      return KeywordIndex.fromParts(readParts(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), ensure));
    } catch (err) {
      if (err instanceof CorruptKeywordData) throw err;
      const why = err instanceof Error ? err.message : String(err);
      throw corruptKeywordData(why);
    }
  }

  /** Folds the delta into the base and drops dead documents (renumbering the live ones). */
  merge(): void {
    runAtOnce(this.mergeSteps());
  }

  /** merge() in steps; the new tables replace the old ones in the last, so a search never sees half of it. */
  private *mergeSteps(): Steps<void> {
    const dead = this.docIds.count - this.liveDocs;
    if (this.delta.size === 0 && dead === 0) return;
    // Renumber live docs, keeping their order so posting lists stay sorted. Where none was removed
    // and add() built the columns (a first index), the numbers stay: nothing is copied, and the
    // map of ids stays good (at 100k files, rebuilding both at each merge was ~0.5 s in all).
    const keepNumbers = dead === 0 && !this.docIds.packedIds && [this.docLens, this.docPath, this.docLang, this.docKind].every((c) => Array.isArray(c));
    const renumbered = keepNumbers ? null : this.liveDocuments(this.docIds.all());
    const remap = renumbered?.remap ?? null;
    yield;
    // The terms decoded now, in steps, rather than by the swap below (sortNewTerms) or the next change.
    yield* this.terms.allSteps();
    const termCount = this.terms.length;
    this.base = yield* mergePostingsSteps(yield* this.decodedBaseSteps(), this.delta, termCount, remap);
    this.mergeCount++;
    this.sortNewTerms();
    this.delta = new DeltaPostings();
    if (renumbered) {
      this.docIds = renumbered.docIds;
      this.docLens = renumbered.docLens;
      this.docPath = renumbered.docPath;
      this.docLang = renumbered.docLang;
      this.docKind = renumbered.docKind;
      this.vectors.remap(renumbered.remap, renumbered.docIds.count);
      this.idToDocMap = null; // renumbered: rebuilt when next asked for
    }
    // Nothing may keep a loaded file's bytes alive past a merge: its postings were just rebuilt.
    this.vectors.release();
    for (const table of [this.paths, this.languages, this.kinds]) table.values();
  }

  /** The live documents renumbered in their order, and where each old number went (-1: dropped). */
  private liveDocuments(oldIds: Array<string | null>) {
    const remap = new Int32Array(oldIds.length).fill(-1);
    const docIds = new DocIds();
    const docLens: number[] = [];
    const docPath: number[] = [];
    const docLang: number[] = [];
    const docKind: number[] = [];
    for (let d = 0; d < oldIds.length; d++) {
      const id = oldIds[d];
      if (id === null) continue;
      remap[d] = docIds.count;
      docIds.push(id);
      docLens.push(this.docLens[d]);
      docPath.push(this.docPath[d]);
      docLang.push(this.docLang[d]);
      docKind.push(this.docKind[d]);
    }
    return { remap, docIds, docLens, docPath, docLang, docKind };
  }

  /**
   * Whether `n` ids are better found by a pass over a loaded index's packed ids than by the map
   * of every id: only while the ids are packed and there is no map yet (a pass that merged
   * builds the map once rather than scanning at every add).
   */
  private findsWithoutMap(n: number): boolean {
    return this.idToDocMap === null && this.docIds.packedIds && n <= FIND_WITHOUT_MAP;
  }

  private get idToDoc(): Map<string, number> {
    if (!this.idToDocMap) {
      const map = new Map<string, number>();
      const docIds = this.docIds.all();
      for (let d = 0; d < docIds.length; d++) {
        const id = docIds[d];
        if (id !== null) map.set(id, d);
      }
      this.idToDocMap = map;
    }
    return this.idToDocMap;
  }

  private lookupTerm(term: string): number | undefined {
    if (this.termIds) return this.termIds.get(term);
    const fresh = this.newTermIds.get(term);
    if (fresh !== undefined) return fresh;
    if (this.sortedTerms === null) {
      const loaded = this.terms.findLoaded(term);
      if (loaded !== null) return loaded >= 0 ? loaded : undefined;
    }
    let lo = 0;
    let hi = this.sortedCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const id = this.sortedTerm(mid);
      const t = this.terms.get(id);
      if (t === term) return id;
      if (t < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  private buildTermMap(): void {
    const map = new Map<string, number>();
    const terms = this.terms.all();
    for (let i = 0; i < terms.length; i++) map.set(terms[i], i);
    this.termIds = map;
    this.newTermIds.clear();
  }

  /** The id of the i-th term in string order (of the first sortedCount). */
  private sortedTerm(i: number): number {
    return this.sortedTerms === null ? i : this.sortedTerms[i];
  }

  /** Folds terms created since the last merge into sortedTerms: sort the new ones, merge two sorted runs. */
  private sortNewTerms(): void {
    const n = this.terms.length;
    if (this.sortedCount === n) return;
    const terms = this.terms.all();
    const fresh: number[] = [];
    for (let t = this.sortedCount; t < n; t++) fresh.push(t);
    fresh.sort((a, b) => (terms[a] < terms[b] ? -1 : terms[a] > terms[b] ? 1 : 0));
    const out = new Uint32Array(n);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sortedCount && j < fresh.length) {
      const sorted = this.sortedTerm(i);
      if (terms[sorted] <= terms[fresh[j]]) {
        out[k++] = sorted;
        i++;
      } else out[k++] = fresh[j++];
    }
    while (i < this.sortedCount) out[k++] = this.sortedTerm(i++);
    while (j < fresh.length) out[k++] = fresh[j++];
    this.sortedTerms = out;
    this.sortedCount = n;
    // Every term is now findable by binary search.
    this.newTermIds.clear();
  }

  private pushPosting(termId: number, docNo: number, tf: number): void {
    this.delta.push(termId, docNo, tf);
  }

  /** The declaration terms of a document's names, each once. */
  private declarationTermIds(names: readonly string[] | undefined): number[] {
    if (!names?.length) return [];
    const ids = new Set<number>();
    for (const name of names) for (const key of declaredNameKeys(name)) ids.add(this.termIdOf(DECLARATION_TERM + key));
    return [...ids];
  }

  private countTokens(tokens: string[], weight: number, touched: number[]): void {
    for (const token of tokens) this.countTerm(this.termIdOf(normaliseTerm(token)), weight, touched);
  }

  /** The id of a term, created when new. */
  private termIdOf(term: string): number {
    let termId = this.lookupTerm(term);
    if (termId === undefined) {
      termId = this.terms.push(term);
      (this.termIds ?? this.newTermIds).set(term, termId);
    }
    // A loaded index's terms have ids up to its term count, not only the new ones: the scratch
    // must reach any id (a count past its end would be lost, and the term with it).
    if (termId >= this.tfScratch.length) {
      let size = this.tfScratch.length * 2;
      while (size <= termId) size *= 2;
      const grown = new Uint32Array(size);
      grown.set(this.tfScratch);
      this.tfScratch = grown;
    }
    return termId;
  }

  private countTerm(termId: number, weight: number, touched: number[]): void {
    if (this.tfScratch[termId] === 0) touched.push(termId);
    this.tfScratch[termId] += weight;
  }

  private postingCount(termId: number): number {
    return (termId < this.base.termCount ? this.base.count(termId) : 0) + this.delta.count(termId);
  }

  /** Calls visit(doc, tf) for every posting of a term, base then delta (dead documents included). */
  private forEachPosting(termId: number, visit: (doc: number, tf: number) => void): void {
    if (termId < this.base.termCount) this.base.forEach(termId, visit);
    this.delta.forEach(termId, visit);
  }

  /** The base postings as arrays, decoding a loaded index's bytes first (what merges need). */
  private *decodedBaseSteps(): Steps<CsrPostings> {
    if (this.base instanceof EncodedPostings) this.base = yield* this.base.toCsrSteps();
    return this.base;
  }

  /** How many postings the base holds. */
  private basePostingTotal(): number {
    return this.base instanceof EncodedPostings ? this.base.total : this.base.docs.length;
  }

  private kill(docNo: number): void {
    const id = this.docIds.id(docNo);
    if (id === null) return;
    this.fileLens = null;
    this.docIds.kill(docNo);
    this.idToDocMap?.delete(id);
    this.liveDocs--;
    this.liveLenSum -= this.docLens[docNo];
  }

  /** Installs state read from the binary form (used by deserialize). */
  private static fromParts(parts: LoadedParts): KeywordIndex {
    const index = new KeywordIndex();
    index.docIds = DocIds.loaded(parts.docIds);
    index.docLens = parts.docLens;
    index.docPath = parts.docPath;
    index.docLang = parts.docLang;
    index.docKind = parts.docKind;
    index.idToDocMap = null;
    index.liveDocs = parts.docIds.length;
    let sum = 0;
    const lens = parts.docLens;
    for (let d = 0; d < lens.length; d++) sum += lens[d];
    index.liveLenSum = sum;
    index.paths = Interner.loaded(parts.paths);
    index.languages = Interner.loaded(parts.languages);
    index.kinds = Interner.loaded(parts.kinds);
    // Terms arrive sorted: ids are positions, lookups binary-search until a large add().
    index.terms = TermTable.loaded(parts.terms);
    index.termIds = null;
    const termCount = parts.terms.length;
    index.sortedTerms = null;
    index.sortedCount = termCount;
    index.base = parts.postings;
    const v = parts.vectors;
    index.vectors = v.bits === 8 ? VectorCodes.fromInt8Bytes(v.dimension, v.rows, v.scales, v.codes) : VectorCodes.fromBytes(v.dimension, v.rows, v.scales, v.codes);
    return index;
  }
}

function checkDoc(doc: KeywordDoc): void {
  // NUL separates strings in the binary form; no real path, id or language contains one.
  for (const key of ["id", "filePath", "language", "kind"] as const) {
    const v = doc[key];
    if (typeof v !== "string") throw new Error(`keyword document ${JSON.stringify(doc.id)} has no ${key}`);
    if (v.includes("\0")) throw new Error(`keyword document ${JSON.stringify(doc.id)}: ${key} contains a NUL character`);
  }
  if (doc.id.length === 0) throw new Error("keyword document has an empty id");
}

/** Documents per call of addFileLengths(). */
const FILE_LENGTH_BLOCK = 4096;

/** Per file of a keyword index: length, chunks, and how many files have any. */
interface FileLengths {
  lens: Uint32Array;
  chunks: Uint32Array;
  /** The sum of `chunks`. */
  chunkSum: number;
  count: number;
}

/**
 * Adds documents [from, to)'s lengths and counts to their files' (only live ones, where `live`
 * is given) and returns how many files got their first length. A function of its own, called
 * block by block, so that V8 optimises it after a few blocks: the same loop run once over 109k
 * documents stayed in the interpreter (~9 ms of a one-off search at 100k files).
 */
function addFileLengths(lens: Uint32Array, chunks: Uint32Array, docPath: DocColumn, docLens: DocColumn, live: { isLive(doc: number): boolean } | null, from: number, to: number): number {
  let firsts = 0;
  for (let d = from; d < to; d++) {
    const len = docLens[d];
    if (len === 0 || (live !== null && !live.isLive(d))) continue;
    const p = docPath[d];
    if (lens[p] === 0) firsts++;
    lens[p] += len;
    chunks[p]++;
  }
  return firsts;
}
