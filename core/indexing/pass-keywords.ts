// The keyword side of one pass: the in-memory index it edits (read lazily: a no-op pass of a
// big workspace never parses the snapshot), and its changes, written at commit as a delta
// file or a new snapshot.
import { statSync } from "node:fs";
import { join } from "node:path";
import { KeywordIndex, type KeywordDoc } from "../keyword/keyword-index.js";
import { removeQuietly, writeFileAtomic, writeFileAtomicWithAsync } from "./atomic-file.js";
import {
  KEYWORD_DELTA_MAX_BYTES,
  KEYWORD_DELTA_MAX_FILES,
  KEYWORD_DELTA_MAX_OPS,
  KEYWORD_FILE_PREFIX,
  keywordFilesOf,
  loadKeywordSnapshot,
  removeOrphanSnapshots,
  type KeywordDelta,
} from "./keyword-files.js";
import type { Manifest } from "./manifest.js";
import { passSliceMs, type PassEnv } from "./pass-env.js";

export class PassKeywords {
  /** Removals apply before additions in a delta: a pass never removes and re-adds the same id. */
  readonly removed: string[] = [];
  readonly added: KeywordDoc[] = [];
  private loaded: KeywordIndex | null;
  /** The keyword files the committed manifest named when the pass began. */
  private readonly previousFiles: string[];
  /**
   * The edited index's merges before this pass's changes: the index it began from has its own;
   * one read from the files starts from none, so a merge while replaying their deltas counts.
   */
  private readonly mergesBefore: number;

  /**
   * `start`: the index this pass begins from, or null to read the committed one when the pass
   * first changes something. `searchable`: whether searches of this process may see it
   * mid-pass (not for a rebuild over a committed index: searches keep the committed one).
   */
  constructor(
    private readonly env: PassEnv,
    private readonly committed: Manifest | null,
    start: KeywordIndex | null,
    searchable: boolean,
  ) {
    this.loaded = start;
    this.mergesBefore = start?.merges ?? 0;
    this.previousFiles = committed ? keywordFilesOf(committed) : [];
    // Searches in this process may see it mid-pass (hits whose rows are not stored yet are
    // dropped by retrieval); a failed pass discards it.
    if (start && searchable) env.keyword = start;
  }

  /** The index the pass edits, read from the committed files the first time it is needed. */
  index(): KeywordIndex {
    if (this.loaded) return this.loaded;
    const loaded = this.committed ? loadKeywordSnapshot(this.env.stateDir, this.committed) : null;
    if (!loaded) {
      // Gone, the next pass finds the snapshot missing and rebuilds the index.
      if (this.committed) for (const f of keywordFilesOf(this.committed)) removeQuietly(join(this.env.stateDir, f));
      throw new Error("the keyword index snapshot is unreadable; the next index pass rebuilds the index");
    }
    this.loaded = loaded;
    this.env.keyword = loaded;
    return loaded;
  }

  remove(ids: string[]): void {
    if (ids.length === 0) return;
    this.index().removeIds(ids);
    this.removed.push(...ids);
  }

  add(docs: KeywordDoc[]): void {
    if (docs.length === 0) return;
    this.index().add(docs);
    if (this.added.length + this.removed.length <= KEYWORD_DELTA_MAX_OPS) this.added.push(...docs);
  }

  /** A failed pass: searches must not see its half-edited index. */
  discard(): void {
    this.env.keyword = null;
  }

  /**
   * Writes this pass's keyword files for `manifest` (a delta when the pass was small and
   * `deltaAllowed`, else a snapshot) and names them in it.
   */
  async write(manifest: Manifest, deltaAllowed: boolean): Promise<void> {
    const stateDir = this.env.stateDir;
    const deltas = manifest.keywordDeltas ?? [];
    // A delta whose replay would merge (many removals: a quarter of the chunks, over 1,000) makes
    // every opening process decode all postings: removing a 1,752-chunk file took a one-off
    // query from 0.43 to 0.80 s. This pass's index merged the same way, so its snapshot is cheap.
    const merged = this.loaded !== null && this.loaded.merges > this.mergesBefore;
    const small = !merged && this.added.length + this.removed.length <= KEYWORD_DELTA_MAX_OPS;
    // Vectors as plain arrays: a typed array would not survive JSON.
    const delta =
      deltaAllowed && manifest.keywordFile && small && deltas.length < KEYWORD_DELTA_MAX_FILES
        ? JSON.stringify({ remove: this.removed, add: this.added.map((d) => (d.vector ? { ...d, vector: Array.from(d.vector) } : d)) } satisfies KeywordDelta)
        : null;
    if (delta !== null && filesBytes(stateDir, deltas) + Buffer.byteLength(delta) <= KEYWORD_DELTA_MAX_BYTES) {
      const deltaFile = `${KEYWORD_FILE_PREFIX}${manifest.generation}.delta.json`;
      writeFileAtomic(join(stateDir, deltaFile), delta);
      manifest.keywordDeltas = [...deltas, deltaFile];
    } else {
      const keywordFile = `${KEYWORD_FILE_PREFIX}${manifest.generation}.bin`;
      // In slices: a background pass shares its thread with the host, and at 100k files the
      // snapshot held it 1.6 s.
      await writeFileAtomicWithAsync(join(stateDir, keywordFile), (write) => this.index().serializeToInSlices(write, passSliceMs(this.env)));
      manifest.keywordFile = keywordFile;
      manifest.keywordDeltas = [];
    }
  }

  /** After the manifest naming the new files is written: the files it no longer names go. */
  removeOldFiles(manifest: Manifest): void {
    const keep = new Set(keywordFilesOf(manifest));
    for (const f of this.previousFiles) if (!keep.has(f)) removeQuietly(join(this.env.stateDir, f));
    removeOrphanSnapshots(this.env.stateDir, keep);
  }

  /**
   * The committed index for searches of this process. A pass that never read it leaves it
   * unread, and lets go of one this process holds of an older generation (another process
   * committed since): searches read the committed one instead.
   */
  publish(generation: number): void {
    if (this.loaded) {
      this.env.keyword = this.loaded;
      this.env.keywordGeneration = generation;
    } else if (this.env.keywordGeneration !== generation) {
      this.env.keyword = null;
      this.env.keywordGeneration = -1;
    }
  }
}

/** The bytes of the state folder's files named; a file that cannot be read counts as too big. */
function filesBytes(stateDir: string, files: readonly string[]): number {
  let total = 0;
  for (const f of files) {
    try {
      total += statSync(join(stateDir, f)).size;
    } catch {
      return Infinity;
    }
  }
  return total;
}
