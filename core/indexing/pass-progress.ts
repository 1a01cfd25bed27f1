// A pass's progress and timings: to the caller on every step, to the shared progress file
// (read by status and other hosts) a few times a second; where the time went, for --debug.
import type { IndexOptions, IndexProgress } from "../engine-types.js";
import { writeProgress } from "./state-files.js";

const PROGRESS_FILE_EVERY_MS = 250;

export class PassProgress {
  readonly state: IndexProgress = { phase: "scanning", filesDone: 0, filesTotal: 0, chunksDone: 0, bytesDone: 0, elapsedMs: 0 };
  /** Milliseconds per step, logged at debug level (the bench and --debug read it). */
  readonly timings: Record<string, number> = {};
  readonly started = Date.now();
  private readonly startedAt = new Date(this.started).toISOString();
  private lastFileWrite = 0;
  private lastMark = performance.now();

  constructor(
    private readonly stateDir: string,
    private readonly onProgress: IndexOptions["onProgress"],
  ) {}

  /** Adds the time since the previous mark to `step`. */
  mark(step: string): void {
    const now = performance.now();
    this.timings[step] = Math.round((this.timings[step] ?? 0) + now - this.lastMark);
    this.lastMark = now;
  }

  phase(phase: IndexProgress["phase"], force = false): void {
    this.state.phase = phase;
    this.report(force);
  }

  report(force = false): void {
    const progress = this.state;
    progress.elapsedMs = Date.now() - this.started;
    try {
      this.onProgress?.({ ...progress });
    } catch {
      // a host's progress display must not break the pass
    }
    if (force || Date.now() - this.lastFileWrite >= PROGRESS_FILE_EVERY_MS) {
      this.lastFileWrite = Date.now();
      writeProgress(this.stateDir, {
        pid: process.pid,
        startedAt: this.startedAt,
        updatedAt: new Date().toISOString(),
        phase: progress.phase,
        filesDone: progress.filesDone,
        filesTotal: progress.filesTotal,
        chunksDone: progress.chunksDone,
      });
    }
  }
}
