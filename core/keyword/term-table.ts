// The keyword index's terms by id. A loaded index keeps the file's terms packed (decoded one at a
// time by the lookups of a search) and materialises them only when it is changed in bulk.
// Portable.
import type { PackedStrings } from "./packed-strings.js";
import { runAtOnce, type Steps } from "../yield.js";

export class TermTable {
  /** Terms [0, packed.length), as loaded; the rest are in `list`. */
  private packed: PackedStrings | null = null;
  private list: string[] = [];

  static loaded(packed: PackedStrings): TermTable {
    const table = new TermTable();
    table.packed = packed;
    return table;
  }

  get length(): number {
    return (this.packed?.length ?? 0) + this.list.length;
  }

  get(id: number): string {
    const packedCount = this.packed?.length ?? 0;
    return id < packedCount ? this.packed!.get(id) : this.list[id - packedCount];
  }

  /** While the table is as loaded (packed, in string order: ids are positions), the id of `term` or -1; else null. */
  findLoaded(term: string): number | null {
    return this.packed ? this.packed.find(term) : null;
  }

  /** Adds a term; returns its id. */
  push(term: string): number {
    this.list.push(term);
    return this.length - 1;
  }

  /** Every term by id, decoded once (what bulk changes iterate over). */
  all(): string[] {
    return runAtOnce(this.allSteps());
  }

  /** all() in steps. */
  *allSteps(): Steps<string[]> {
    if (this.packed) {
      const loaded = yield* this.packed.toArraySteps();
      for (const t of this.list) loaded.push(t);
      this.list = loaded;
      this.packed = null;
    }
    return this.list;
  }
}
