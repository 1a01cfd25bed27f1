// Store writes of a pass: in the pass's order, at most one in flight, so a batch's write runs
// while the next batch is embedded; a failure surfaces at the next write or at settle().
//
// Added rows are gathered into appends of about a thousand. Each LanceDB append is a table
// version and a fragment: appending every batch (~100 rows at 100k small files) made the
// appends grow slower as versions piled up and left ~250 MB of native memory behind per 100k
// rows; in appends of 1,000 the same rows took a fifth of the time and ~50 MB. A removal first
// writes the rows gathered before it, so the store sees every change in the pass's order.
import type { StoreRow as Row, VectorStore } from "../types.js";

/** Rows an append gathers, unless their text reaches APPEND_CHARS first. */
export const APPEND_ROWS = 1000;
/** Characters of text an append gathers at most (long chunks: fewer rows, same memory). */
const APPEND_CHARS = 8 * 1024 * 1024;

export class WriteQueue {
  private inFlight: Promise<void> = Promise.resolve();
  private rows: Row[] = [];
  private chars = 0;

  constructor(
    private readonly store: Pick<VectorStore, "add" | "deleteByIds">,
    private readonly appendRows = APPEND_ROWS,
  ) {}

  /** Queues one batch's changes: its removals, then its rows. */
  async write(removeIds: string[], rows: Row[]): Promise<void> {
    if (removeIds.length > 0) {
      await this.flush();
      await this.after(() => this.store.deleteByIds(removeIds));
    }
    for (const r of rows) {
      this.rows.push(r);
      this.chars += r.content.length;
    }
    if (this.rows.length >= this.appendRows || this.chars >= APPEND_CHARS) await this.flush();
  }

  /** Writes the rows gathered so far and waits for every write; throws the first failure. */
  async settle(): Promise<void> {
    await this.flush();
    await this.inFlight;
  }

  /** After a failure: forgets gathered rows and waits for the write in flight, ignoring its error. */
  async drain(): Promise<void> {
    this.rows = [];
    this.chars = 0;
    await this.inFlight.catch(() => undefined);
  }

  /** Starts appending the gathered rows once the write in flight is done. */
  private async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    this.chars = 0;
    await this.after(() => this.store.add(rows));
  }

  /** Waits for the write in flight (throwing its error), then starts `write`. */
  private async after(write: () => Promise<void>): Promise<void> {
    await this.inFlight;
    this.inFlight = write();
    // seen at the next write or settle(); never an unhandled rejection meanwhile
    this.inFlight.catch(() => undefined);
  }
}
