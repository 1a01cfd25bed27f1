// Descriptions already written, by key (a hash of what was described) and model, in
// <stateDir>/descriptions.json, so an unchanged chunk or image is never sent to the LLM twice —
// not after an edit elsewhere in its file, not after a rebuild. Written atomically (temp file
// + rename): a killed pass leaves the previous file. Node-only.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const DESCRIPTION_CACHE_FILE = "descriptions.json";

interface CacheFile {
  version: 1;
  /** key -> model -> description */
  entries: Record<string, Record<string, string>>;
}

export class DescriptionCache {
  private entries: CacheFile["entries"] = {};
  private dirty = false;
  readonly file: string;

  constructor(stateDir: string) {
    this.file = join(stateDir, DESCRIPTION_CACHE_FILE);
    this.load();
  }

  private load(): void {
    if (!existsSync(this.file)) return;
    try {
      const parsed = JSON.parse(readFileSync(this.file, "utf8")) as Partial<CacheFile>;
      if (parsed.version === 1 && parsed.entries && typeof parsed.entries === "object") this.entries = parsed.entries;
    } catch {
      // A corrupt cache only costs re-describing; start empty and overwrite it on save.
      this.entries = {};
    }
  }

  get(key: string, model: string): string | undefined {
    return this.entries[key]?.[model];
  }

  set(key: string, model: string, description: string): void {
    (this.entries[key] ??= {})[model] = description;
    this.dirty = true;
  }

  get size(): number {
    return Object.keys(this.entries).length;
  }

  /** Persists new entries. Failing to write only costs re-describing later, so it never throws. */
  save(): void {
    if (!this.dirty) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ version: 1, entries: this.entries } satisfies CacheFile));
      renameSync(tmp, this.file);
      this.dirty = false;
    } catch {
      // keep dirty: the next save tries again
    }
  }
}
