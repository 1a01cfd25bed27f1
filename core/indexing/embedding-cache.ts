// Vectors by content hash, per model: an unchanged chunk is never embedded twice, not even
// after its file changed around it or the index was rebuilt. Kept for remote models only
// (network, money, rate limits): a model cheap to recompute (`cheapToRecompute`, the bundled
// one) would pay a second copy of every vector the table holds (183 MB beside a 218 MB table
// at 100k files) to save milliseconds; its passes re-use vectors from the rows they replace. One append-only file per
// provider/model/dimension: records of [20-byte sha1][dimension float32]. A pass killed
// mid-append leaves at most one partial record at the end, which loading drops.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, fstatSync, ftruncateSync } from "node:fs";
import { join } from "node:path";

export const EMBEDDING_CACHE_DIR = "embedding-cache";
const HASH_BYTES = 20;

function cacheFileName(provider: string, model: string, dimension: number): string {
  const safe = `${provider}-${model}`.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 120);
  return `${safe}-${dimension}.bin`;
}

/**
 * Removes the cache file of a model that keeps none (left by an older version): the disk then
 * holds one copy of every vector, the table's.
 */
export function removeEmbeddingCacheFile(stateDir: string, provider: string, model: string, dimension: number): void {
  rmSync(join(stateDir, EMBEDDING_CACHE_DIR, cacheFileName(provider, model, dimension)), { force: true });
}

export class EmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();
  private pending: Array<[string, Float32Array]> = [];
  readonly file: string;

  private constructor(dir: string, provider: string, model: string, readonly dimension: number) {
    this.file = join(dir, cacheFileName(provider, model, dimension));
  }

  static open(stateDir: string, provider: string, model: string, dimension: number): EmbeddingCache {
    const dir = join(stateDir, EMBEDDING_CACHE_DIR);
    // Read at the first look-up: a pass with nothing to embed (a no-op re-index) never reads
    // the file, 180 MB for 175k chunks.
    return new EmbeddingCache(dir, provider, model, dimension);
  }

  /**
   * `previous` when it is the cache of the same state folder, provider, model and dimension
   * (a long-lived process keeps it between passes instead of re-reading the file; entries
   * another process appended meanwhile are only missed, never wrong), else the file opened.
   */
  static reuseOrOpen(previous: EmbeddingCache | null | undefined, stateDir: string, provider: string, model: string, dimension: number): EmbeddingCache {
    const file = join(stateDir, EMBEDDING_CACHE_DIR, cacheFileName(provider, model, dimension));
    if (previous && previous.file === file && previous.dimension === dimension) return previous;
    return EmbeddingCache.open(stateDir, provider, model, dimension);
  }

  private get recordBytes(): number {
    return HASH_BYTES + this.dimension * 4;
  }

  private loaded = false;

  private ensureLoaded(): void {
    if (this.loaded) return;
    this.loaded = true;
    this.load();
  }

  private load(): void {
    if (!existsSync(this.file)) return;
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.file);
    } catch {
      return;
    }
    // Vectors are views into the file's bytes (one allocation, not one per record): parsing a
    // 34k-entry cache this way takes ~55 ms instead of ~220. Float32 views need 4-byte
    // alignment; records keep it (20-byte hash + 4-byte floats) when the buffer starts aligned.
    const data = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(bytes);
    const n = Math.floor(data.length / this.recordBytes);
    for (let r = 0; r < n; r++) {
      const off = r * this.recordBytes;
      this.vectors.set(data.toString("hex", off, off + HASH_BYTES), new Float32Array(data.buffer, data.byteOffset + off + HASH_BYTES, this.dimension));
    }
    if (bytes.length !== n * this.recordBytes) this.truncateTo(n * this.recordBytes);
  }

  private truncateTo(length: number): void {
    try {
      const fd = openSync(this.file, "r+");
      try {
        ftruncateSync(fd, length);
      } finally {
        closeSync(fd);
      }
    } catch {
      // the partial record stays; loading ignores it again next time
    }
  }

  get size(): number {
    this.ensureLoaded();
    return this.vectors.size;
  }

  /** Entries in the file, from its size alone (records of a partial write not counted). */
  get sizeOnDisk(): number {
    try {
      return Math.floor(statSync(this.file).size / this.recordBytes);
    } catch {
      return 0;
    }
  }

  /**
   * Writes what is pending and lets go of the vectors held in memory when they take more than
   * `maxBytes`; the next look-up reads the file again. A long-lived process (the plugin, a
   * watcher) then does not hold every vector of a big workspace between passes, nor during
   * the commit's index build.
   */
  releaseAbove(maxBytes: number): boolean {
    this.flush();
    if (this.vectors.size * this.dimension * 4 <= maxBytes) return false;
    this.vectors.clear();
    this.loaded = false;
    return true;
  }

  /** Whether the file has been read (by a look-up): until then `size` would read it. */
  get isLoaded(): boolean {
    return this.loaded;
  }

  get(hash: string): Float32Array | undefined {
    this.ensureLoaded();
    return this.vectors.get(hash);
  }

  set(hash: string, vector: Float32Array): void {
    if (vector.length !== this.dimension || this.vectors.has(hash)) return;
    this.vectors.set(hash, vector);
    this.pending.push([hash, vector]);
  }

  /** The file's bytes for these entries: per record the hash's 20 bytes, then the vector. */
  private encode(entries: Iterable<[string, Float32Array]>, count: number): Buffer {
    const buf = Buffer.alloc(count * this.recordBytes);
    let off = 0;
    for (const [hash, vec] of entries) {
      buf.write(hash, off, HASH_BYTES, "hex");
      buf.set(new Uint8Array(vec.buffer, vec.byteOffset, vec.byteLength), off + HASH_BYTES);
      off += this.recordBytes;
    }
    return buf;
  }

  /** Appends new entries to the file. Failing to write only costs re-embedding later. */
  flush(): void {
    if (this.pending.length === 0) return;
    const buf = this.encode(this.pending, this.pending.length);
    this.pending = [];
    try {
      mkdirSync(join(this.file, ".."), { recursive: true });
      const fd = openSync(this.file, "a");
      try {
        // Align first: a previous writer killed mid-record must not shift every later record.
        const len = fstatSync(fd).size;
        if (len % this.recordBytes !== 0) ftruncateSync(fd, len - (len % this.recordBytes));
        writeSync(fd, buf);
      } finally {
        closeSync(fd);
      }
    } catch {
      // best effort
    }
  }

  /** Rewrites the file keeping only `live` hashes, when dead entries dominate it. */
  compact(live: Set<string>): void {
    this.ensureLoaded();
    if (this.vectors.size < 1000 || this.vectors.size < live.size * 2) return;
    this.flush();
    for (const hash of [...this.vectors.keys()]) if (!live.has(hash)) this.vectors.delete(hash);
    const tmp = `${this.file}.tmp`;
    try {
      const buf = this.encode(this.vectors, this.vectors.size);
      const fd = openSync(tmp, "w");
      try {
        writeSync(fd, buf);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch {
      rmSync(tmp, { force: true });
    }
  }
}
