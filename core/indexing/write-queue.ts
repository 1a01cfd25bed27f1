// Store writes of a pass: at most one in flight, started in order, so a batch's write runs
// while the next batch is embedded; its failure surfaces at the next settle.
export class WriteQueue {
  private inFlight: Promise<void> = Promise.resolve();

  start(write: () => Promise<void>): void {
    this.inFlight = write();
    // seen at settle(); never an unhandled rejection meanwhile
    this.inFlight.catch(() => undefined);
  }

  /** Waits for the write in flight; throws its error. */
  settle(): Promise<void> {
    return this.inFlight;
  }

  /** Waits for the write in flight, ignoring its error (the pass is failing already). */
  async drain(): Promise<void> {
    await this.inFlight.catch(() => undefined);
  }
}
