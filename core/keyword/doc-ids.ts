// The keyword index's document ids by document number; null marks a removed document. A loaded
// index keeps the file's ids packed (a search decodes only the ids it returns) until one is
// removed or the table is walked whole. Portable.
import type { PackedStrings } from "./packed-strings.js";

export class DocIds {
  /** Ids as loaded, all live; null once `list` holds them. */
  private packed: PackedStrings | null = null;
  private list: Array<string | null> = [];

  static loaded(packed: PackedStrings): DocIds {
    const ids = new DocIds();
    ids.packed = packed;
    return ids;
  }

  /** Document numbers in use, removed ones included. */
  get count(): number {
    return this.packed ? this.packed.length : this.list.length;
  }

  isLive(doc: number): boolean {
    return this.packed !== null || this.list[doc] !== null;
  }

  /** The id of a document, null when it was removed. */
  id(doc: number): string | null {
    return this.packed ? this.packed.get(doc) : this.list[doc];
  }

  push(id: string): void {
    this.all().push(id);
  }

  kill(doc: number): void {
    this.all()[doc] = null;
  }

  /** Every document's id (null: removed), decoded once. */
  all(): Array<string | null> {
    if (this.packed) {
      this.list = this.packed.toArray();
      this.packed = null;
    }
    return this.list;
  }
}
