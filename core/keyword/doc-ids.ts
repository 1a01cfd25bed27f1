// The keyword index's document ids by document number; null marks a removed document. A loaded
// index keeps the file's ids packed (a search decodes only the ids it returns): documents added
// after the load are listed beside them and removals are marked, so the small changes of a
// keyword delta file decode nothing; walking the whole table decodes it once. Portable.
import type { IdTable } from "./hex-ids.js";

export class DocIds {
  /** Ids as loaded, documents [0, packed.length); null once `list` holds every id. */
  private packed: IdTable | null = null;
  /** Removed documents among the packed ones. */
  private dead: Set<number> | null = null;
  /** Every id when not packed; else the ids of the documents after the packed ones. */
  private list: Array<string | null> = [];
  /** The removed documents' numbers in order (removedBefore), until the next removal. */
  private removedInOrder: Int32Array | null = null;
  /** Packed positions found ahead (lookAhead), for the find() calls that ask for no other ids. */
  private ahead: { asked: Set<string>; found: Map<string, number> } | null = null;

  static loaded(packed: IdTable): DocIds {
    const ids = new DocIds();
    ids.packed = packed;
    return ids;
  }

  /** Document numbers in use, removed ones included. */
  get count(): number {
    return this.packedCount + this.list.length;
  }

  isLive(doc: number): boolean {
    const p = this.packedCount;
    if (doc >= p) return this.list[doc - p] !== null;
    return this.dead === null || !this.dead.has(doc);
  }

  /** The id of a document, null when it was removed. */
  id(doc: number): string | null {
    const p = this.packedCount;
    if (doc >= p) return this.list[doc - p];
    return this.dead?.has(doc) ? null : this.packed!.get(doc);
  }

  push(id: string): void {
    this.list.push(id);
  }

  kill(doc: number): void {
    this.removedInOrder = null;
    const p = this.packedCount;
    if (doc >= p) this.list[doc - p] = null;
    else (this.dead ??= new Set()).add(doc);
  }

  /** How many documents numbered below `doc` were removed. */
  removedBefore(doc: number): number {
    const removed = (this.removedInOrder ??= this.removedNumbers());
    let lo = 0;
    let hi = removed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (removed[mid] < doc) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private removedNumbers(): Int32Array {
    const out: number[] = [...(this.dead ?? [])];
    const p = this.packedCount;
    for (let i = 0; i < this.list.length; i++) if (this.list[i] === null) out.push(p + i);
    return Int32Array.from(out).sort();
  }

  /** Whether the loaded ids are still packed (find() then avoids decoding them). */
  get packedIds(): boolean {
    return this.packed !== null;
  }

  /**
   * Finds these ids among the packed ones now, in one pass over them, for the find() calls to
   * come: a process replaying several keyword deltas made two passes a delta (~4 ms each at 100k
   * files). Packed positions never change, so what it found holds until all() unpacks them.
   */
  lookAhead(ids: Iterable<string>): void {
    if (!this.packed) return;
    const asked = new Set(ids);
    this.ahead = { asked, found: this.packed.positionsOf(asked) };
  }

  /** The live documents holding these ids, found without a map of every id (see IdTable.positionsOf). */
  find(ids: Iterable<string>): Map<string, number> {
    const wanted = new Set(ids);
    const out = new Map<string, number>();
    if (this.packed) {
      const ahead = this.ahead;
      const found = ahead && [...wanted].every((id) => ahead.asked.has(id)) ? ahead.found : this.packed.positionsOf(wanted);
      for (const id of wanted) {
        const doc = found.get(id);
        if (doc !== undefined && !this.dead?.has(doc)) out.set(id, doc);
      }
    }
    const p = this.packedCount;
    for (let i = 0; i < this.list.length; i++) {
      const id = this.list[i];
      if (id !== null && wanted.has(id)) out.set(id, p + i);
    }
    return out;
  }

  /** Every document's id (null: removed), decoded once. */
  all(): Array<string | null> {
    if (this.packed) {
      const ids: Array<string | null> = this.packed.toArray();
      for (const d of this.dead ?? []) ids[d] = null;
      for (const id of this.list) ids.push(id);
      this.list = ids;
      this.packed = null;
      this.dead = null;
      this.ahead = null;
    }
    return this.list;
  }

  private get packedCount(): number {
    return this.packed ? this.packed.length : 0;
  }
}
