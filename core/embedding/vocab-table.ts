// A WordPiece vocabulary looked up where it was read: the tokens stay in the one text they came
// in (a line each) and an open-addressing table of their positions, keyed by a hash of their
// length and end units, finds them. Building a Map of the bundled model's 65k tokens took ~40 ms of
// every process that embeds (a string and an entry each); building this table ~35 ms in a fresh
// process, and a model folder's wordpiece.bin stores it built (parts / fromParts). Portable.

/** What the WordPiece encoder asks of a vocabulary (a Map<string, number> answers too). */
export interface TokenLookup {
  get(token: string): number | undefined;
  readonly size: number;
}

/** A built table: its text (tokens from offset 0), where each token starts, its slots, its longest token. */
export interface VocabTableParts {
  text: string;
  starts: Uint32Array;
  slots: Int32Array;
  longest: number;
}

/** Names the hash below: stored slots are only good for the hash that placed them. */
export const HASH_VERSION = "fnv1a-length-head4-tail4";

export class VocabTable implements TokenLookup {
  private constructor(
    /** The tokens, each followed by "\n". */
    private readonly text: string,
    /** Where token i starts in `text`; starts[size] is one past the last token's "\n". */
    private readonly starts: Uint32Array,
    /** Token id + 1 per slot, 0 where empty; the length is a power of two. */
    private readonly slots: Int32Array,
  ) {}

  /** UTF-16 length of the longest token. */
  get longest(): number {
    return this.longestToken;
  }

  private longestToken = 0;

  /** The tokens of `text[from, to)`, one per line in id order (each line ends with "\n"). */
  static fromLines(text: string, from = 0, to = text.length): VocabTable {
    const ends: number[] = [];
    for (let end = text.indexOf("\n", from); end >= 0 && end < to; end = text.indexOf("\n", end + 1)) ends.push(end);
    const starts = new Uint32Array(ends.length + 1);
    let capacity = 16;
    while (capacity < ends.length * 2) capacity *= 2;
    const table = new VocabTable(text, starts, new Int32Array(capacity));
    let start = from;
    for (let id = 0; id < ends.length; id++) {
      starts[id] = start;
      starts[id + 1] = ends[id] + 1;
      table.longestToken = Math.max(table.longestToken, ends[id] - start);
      table.insert(id, hashOf(text, start, ends[id]));
      start = ends[id] + 1;
    }
    return table;
  }

  /**
   * A table from the parts another one gave (`parts`), used as they are; null when they do not
   * fit together (then build it from the text). A table built by another hash would find
   * nothing: callers store HASH_VERSION beside the parts and compare it first.
   */
  static fromParts(parts: VocabTableParts): VocabTable | null {
    const { text, starts, slots, longest } = parts;
    const size = starts.length - 1;
    const powerOfTwo = slots.length > 0 && (slots.length & (slots.length - 1)) === 0;
    if (size < 0 || !powerOfTwo || slots.length < size || starts[0] !== 0 || starts[size] !== text.length) return null;
    const table = new VocabTable(text, starts, slots);
    table.longestToken = longest;
    return table;
  }

  /** What fromParts needs to rebuild this table without hashing a token. */
  get parts(): VocabTableParts {
    return { text: this.text, starts: this.starts, slots: this.slots, longest: this.longestToken };
  }

  /** A table of `tokens` by their position in the list. Throws if a token holds a line break. */
  static fromTokens(tokens: readonly string[]): VocabTable {
    if (tokens.some((t) => t.includes("\n"))) throw new Error("a vocabulary token holds a line break");
    return VocabTable.fromLines(tokens.length === 0 ? "" : tokens.join("\n") + "\n");
  }

  get size(): number {
    return this.starts.length - 1;
  }

  /** The id of `token`; for a token listed twice, the later id (as Map.set would leave it). */
  get(token: string): number | undefined {
    const { slots } = this;
    const mask = slots.length - 1;
    for (let slot = hashOf(token, 0, token.length) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot];
      if (entry === 0) return undefined;
      if (this.holds(entry - 1, token)) return entry - 1;
    }
  }

  /** The token of `id`. */
  token(id: number): string {
    return this.text.slice(this.starts[id], this.starts[id + 1] - 1);
  }

  private holds(id: number, token: string): boolean {
    const start = this.starts[id];
    return this.starts[id + 1] - 1 - start === token.length && this.text.startsWith(token, start);
  }

  /** Tokens `a` and `b` (ids) are the same text. */
  private same(a: number, b: number): boolean {
    const { starts, text } = this;
    const length = starts[a + 1] - starts[a];
    if (starts[b + 1] - starts[b] !== length) return false;
    for (let k = 0; k < length; k++) if (text.charCodeAt(starts[a] + k) !== text.charCodeAt(starts[b] + k)) return false;
    return true;
  }

  private insert(id: number, hash: number): void {
    const { slots } = this;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot];
      if (entry === 0 || this.same(entry - 1, id)) {
        slots[slot] = id + 1;
        return;
      }
    }
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Hash of `text[start, end)` from its length and its first and last four UTF-16 units: cheap
 * to take of every token at load, and few tokens share all of them (the probe compares the rest).
 */
function hashOf(text: string, start: number, end: number): number {
  let h = Math.imul(FNV_OFFSET ^ (end - start), FNV_PRIME);
  const head = Math.min(end, start + 4);
  for (let i = start; i < head; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  for (let i = Math.max(head, end - 4); i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return (h ^ (h >>> 15)) >>> 0;
}
