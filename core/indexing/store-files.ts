// What the committed index expects on disk: the local table's data, deletion and index files
// with their sizes, recorded in the manifest at each commit. A file missing or of another size
// at the next open (truncated by a full disk, deleted by hand) makes the pass read every row
// once to tell real damage from a harmless change (files of old versions compacted away).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { VectorStore } from "../types.js";
import { oneLine } from "../error-line.js";

/** Folders of a Lance table whose files the table's versions reference. */
const TABLE_FILE_DIRS = ["data", "_deletions", "_indices"];

/** Relative path -> size of the table's files; null when the table folder does not exist. */
export function tableFiles(tableDir: string): Record<string, number> | null {
  try {
    statSync(tableDir);
  } catch {
    return null;
  }
  const out: Record<string, number> = {};
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(join(tableDir, rel));
    } catch {
      return;
    }
    for (const n of names) {
      const r = `${rel}/${n}`;
      try {
        const st = statSync(join(tableDir, r));
        if (st.isDirectory()) walk(r);
        else out[r] = st.size;
      } catch {
        // removed while listing: a concurrent compaction
      }
    }
  };
  for (const d of TABLE_FILE_DIRS) walk(d);
  return out;
}

/** "2 files missing, 1 of another size" when `recorded` files are not all present as recorded. */
export function filesDiffer(recorded: Record<string, number>, now: Record<string, number>): string | null {
  let missing = 0;
  let resized = 0;
  for (const [f, size] of Object.entries(recorded)) {
    if (!(f in now)) missing++;
    else if (now[f] !== size) resized++;
  }
  if (missing + resized === 0) return null;
  const parts = [];
  if (missing) parts.push(`${missing} file${missing === 1 ? "" : "s"} missing`);
  if (resized) parts.push(`${resized} of another size`);
  return parts.join(", ");
}

export function sameFiles(a: Record<string, number> | undefined, b: Record<string, number> | null): boolean {
  if (!a || !b) return !a && !b;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/**
 * Null when the store can be trusted, else why not. Cheap when the files are as recorded;
 * otherwise (or with no record, from an older version) every row's id is read once.
 */
export async function storeDamage(
  tableDir: string | null,
  recorded: Record<string, number> | undefined,
  storeOrOpen: VectorStore | (() => Promise<VectorStore>),
  options: { verifyUnrecorded?: boolean } = {},
): Promise<string | null> {
  if (!tableDir) return null;
  const now = tableFiles(tableDir);
  if (!now) return null;
  // A manifest from an older version records no files: only a pass (once) pays for a full read.
  if (!recorded && !options.verifyUnrecorded) return null;
  const changed = recorded ? filesDiffer(recorded, now) : "no record of its files";
  if (!changed) return null;
  try {
    const store = typeof storeOrOpen === "function" ? await storeOrOpen() : storeOrOpen;
    const rows = await store.listAll();
    const count = await store.count();
    if (rows.length !== count) return `${changed}; ${rows.length} of ${count} rows readable`;
    return null;
  } catch (err) {
    return `${recorded ? changed : "unreadable"}: ${oneLine(err)}`;
  }
}

/** A search found the store's files damaged. One line: what is wrong and what happens or to do. */
export class IndexDamagedError extends Error {
  constructor(
    readonly storeUri: string,
    readonly reason: string,
    readonly rebuilding: boolean,
  ) {
    super(
      `the index in ${storeUri} is damaged (${reason}); ` +
        (rebuilding ? "it is being rebuilt, try again shortly (or run `opencode-rag index --force`)" : "run `opencode-rag index --force` to rebuild it"),
    );
    this.name = "IndexDamagedError";
  }
}
