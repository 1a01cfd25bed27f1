// What searches read of the last committed pass: the manifest's dimension and store
// checkpoint, and the keyword index; re-read when the manifest file changes (a pass of this
// or another process committed).
import { statSync } from "node:fs";
import { KeywordIndex } from "../keyword/keyword-index.js";
import { readKeywordSnapshot } from "../indexing/keyword-files.js";
import { manifestPath, readManifestHeader } from "../indexing/manifest.js";
import type { PassEnv } from "../indexing/pass-env.js";

type ManifestStamp = { mtimeMs: number; size: number };

/** What searches read of the committed manifest's header (nulls without a manifest). */
export interface CommittedHeader {
  dimension: number | null;
  checkpoint: number | null;
  /** The model that made the vectors, as the manifest records it (`index-model.ts`). */
  model: { provider: string; model: string } | null;
}

export class CommittedIndex {
  /** The manifest file as last seen by search, to notice passes by other processes. */
  private seenManifest: ManifestStamp | null = null;
  /** committedRead()'s last manifest read, keyed by the manifest's mtime and size. */
  private lastRead: ({ key: string } & CommittedHeader) | null = null;
  /** The keyword snapshot being read, if any. */
  private loading: { generation: number; loading: Promise<KeywordIndex | null> } | null = null;

  /** `passEnv` holds the keyword index this process's passes keep current. */
  constructor(
    private readonly stateDir: () => string,
    private readonly passEnv: PassEnv,
  ) {}

  /** Forgets what was read (the store moved, was cleared or replaced). */
  forget(): void {
    this.passEnv.keyword = null;
    this.passEnv.keywordGeneration = -1;
    this.seenManifest = null;
    this.loading = null;
  }

  /** After a pass of this process committed: its keyword index is the current one. */
  passCommitted(): void {
    this.seenManifest = this.stamp();
  }

  private stamp(): ManifestStamp | null {
    try {
      const st = statSync(manifestPath(this.stateDir()));
      return { mtimeMs: st.mtimeMs, size: st.size };
    } catch {
      return null;
    }
  }

  /** The keyword index of the latest committed pass, reloaded when another process commits one. */
  async keyword(): Promise<KeywordIndex> {
    const env = this.passEnv;
    const stamp = this.stamp();
    const changed = !stamp || !this.seenManifest || stamp.mtimeMs !== this.seenManifest.mtimeMs || stamp.size !== this.seenManifest.size;
    if (env.keyword && !changed) return env.keyword;
    const read = readManifestHeader(this.stateDir());
    if (read.status !== "ok") {
      this.seenManifest = stamp;
      return env.keyword ?? new KeywordIndex();
    }
    const generation = read.header.generation;
    if (env.keyword && env.keywordGeneration === generation) {
      this.seenManifest = stamp;
      return env.keyword;
    }
    // Searches arriving while a generation loads share its load.
    if (this.loading?.generation !== generation) {
      const loading = readKeywordSnapshot(this.stateDir(), read.header).then((loaded) => {
        // Forgotten meanwhile (the store was replaced): install nothing.
        if (this.loading !== current) return loaded;
        this.loading = null;
        // Seen even when unreadable: the next search does not read a damaged file again.
        this.seenManifest = stamp;
        // A pass of this process may have committed a newer index meanwhile: keep that one.
        if (loaded && env.keywordGeneration <= generation) {
          env.keyword = loaded;
          env.keywordGeneration = generation;
        }
        return loaded;
      });
      const current = { generation, loading };
      this.loading = current;
    }
    const loaded = await this.loading!.loading;
    return (env.keywordGeneration >= generation ? env.keyword : loaded) ?? env.keyword ?? new KeywordIndex();
  }

  /**
   * The vector length, store version and model of the index on disk (nulls without a manifest).
   * Read once per manifest version: parsing the manifest of a 10k-file tree costs more than a search.
   */
  read(): CommittedHeader {
    const stamp = this.stamp();
    const key = stamp ? `${stamp.mtimeMs}:${stamp.size}` : "";
    if (this.lastRead?.key !== key) {
      const read = readManifestHeader(this.stateDir());
      this.lastRead =
        read.status === "ok"
          ? {
              key,
              dimension: read.header.dimension,
              checkpoint: read.header.storeCheckpoint,
              model: { provider: read.header.provider, model: read.header.model },
            }
          : { key, dimension: null, checkpoint: null, model: null };
    }
    return this.lastRead;
  }
}
