// Turns a stream of "this path changed" notices into index passes: debounced, never two at
// once, and at most one follow-up queued however many changes arrive during a pass (they
// are merged into it). Pure timing logic, no file system, so it is easy to test.

/** null means "everything": a full pass (an ignore file changed, or the backend lost track). */
export type PassRequest = string[] | null;

export class PassScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Paths waiting for the next pass; "all" when a full pass is wanted. */
  private pending: Set<string> | "all" | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Passes started so far (for status and tests). */
  passes = 0;

  constructor(
    private readonly runPass: (paths: PassRequest) => Promise<void>,
    private readonly debounceMs: number,
  ) {}

  /** Records a change; the pass starts debounceMs after the last notice. */
  notify(path: string | null): void {
    if (this.closed) return;
    if (path === null) this.pending = "all";
    else if (this.pending === null) this.pending = new Set([path]);
    else if (this.pending !== "all") this.pending.add(path);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.startIfIdle();
    }, this.debounceMs);
  }

  /** Runs a pass over these paths (null: everything) now, or right after the running one. */
  requestNow(paths: PassRequest = null): void {
    if (this.closed) return;
    if (paths === null) this.pending = "all";
    else if (this.pending === null) this.pending = new Set(paths);
    else if (this.pending !== "all") for (const p of paths) this.pending.add(p);
    this.startIfIdle();
  }

  get busy(): boolean {
    return this.running !== null;
  }

  private startIfIdle(): void {
    // A pass is running: the pending changes become its single follow-up when it ends.
    if (this.running || this.pending === null || this.closed) return;
    const request: PassRequest = this.pending === "all" ? null : [...this.pending];
    this.pending = null;
    this.passes++;
    this.running = this.runPass(request)
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
        // Changes that arrived meanwhile, once their debounce has run out.
        if (!this.timer) this.startIfIdle();
      });
  }

  /** Waits for the running pass (if any) and stops scheduling new ones. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    if (this.running) await this.running;
  }

  /** Resolves once nothing is running, pending or waiting out its debounce. */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running) {
        await this.running;
        continue;
      }
      if (this.timer || this.pending !== null) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      return;
    }
  }
}
