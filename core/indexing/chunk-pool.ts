// A small pool of chunking workers. Chunking is CPU-bound (tree-sitter parse + queries), so
// a big pass spreads files over the cores; small passes stay in-process, where starting
// workers and loading grammars again would cost more than it saves.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { RagConfig } from "../config/defaults.js";
import { ownCompileLock, ownProcessTuned } from "../own-process.js";
import { packageRoot } from "../paths.js";
import type { FileToPrepare, PreparedFile } from "./prepare-file.js";
import type { WorkerStart } from "./worker-v8.js";
import type { WorkerInit } from "./chunk-worker.js";

/**
 * Below this many bytes to chunk, a pass does it in-process. A worker costs ~10 MB and a
 * grammar load of its own, which it starts while this thread chunks the first files, and earns
 * it from about 0.7 MB of code on: a first `opencode-rag index` (spawn to exit, medians of four
 * or five interleaved runs on two cores) of click (1.3 MB) 2.26 -> 1.93 s, flask (1.4 MB) 1.85
 * -> 1.64 s, circe (1.4 MB) 2.49 -> 2.14 s, sinatra (0.9 MB) 2.37 -> 2.04 s, axios (0.74 MB)
 * 2.02 -> 1.84 s; plug (0.72 MB) and cobra (0.68 MB) the same either way, 5-10 MB heavier
 * (docs/benchmarks.md, 2026-12-07).
 */
export const POOL_MIN_BYTES = 0.7 * 1024 * 1024;
/**
 * From this many bytes to chunk, a pass's threads compile the tree-sitter runtime for V8's
 * optimising tier as well (core/chunking/parser.ts): optimising it costs ~0.2 s of CPU and ~10 MB
 * a thread, and saves about a third of the parse time, ~0.1 s per MB of code. Bench tree (29 MB)
 * first index 13.7-15.3 -> 11.7-12.2 s; pallets/click (1.3 MB) would lose 0.13 s.
 */
export const OPTIMISED_PARSING_MIN_BYTES = 8 * 1024 * 1024;
/**
 * Jobs in flight per worker. Jobs are handed out from this thread, which is busy for tens of
 * milliseconds at a time embedding and indexing a batch; a worker must hold enough files to
 * stay busy meanwhile (4 left it idle a third of a 20k-file pass: 33 s, 64: 21 s).
 */
const IN_FLIGHT_PER_WORKER = 64;

/**
 * A worker's young generation (V8's nursery), in MB. Chunking's garbage is short-lived (syntax
 * node wrappers, strings), and V8's default nursery of up to ~48 MB per thread mostly held
 * garbage: at 8 MB the bench tree's peak RSS 452-456 -> 432-434 MB, eigen's 378-384 ->
 * 362-364 MB and 100k files' 671-713 -> 655-664 MB, as fast (4 MB was no lighter).
 */
const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * Jobs sent to a worker stay claimable until the worker starts one: this thread, about to wait
 * for a worker's backlog, takes back the last ones instead (takeUnstarted). One Int32 per job
 * (by id, modulo the table's size, far above the most jobs in flight) holds the job's id while
 * nobody has started it; whoever swaps it to 0 first does the job.
 */
const CLAIM_SLOTS = 4096;

/** The bundled worker script, beside the running bundle or in the package's dist/. */
export function chunkWorkerScript(): string | null {
  const candidates: string[] = [];
  try {
    candidates.push(fileURLToPath(new URL("./chunk-worker.js", import.meta.url)));
  } catch {
    // not a file: URL (browser): no workers
  }
  try {
    candidates.push(join(packageRoot(), "dist", "chunk-worker.js"));
  } catch {
    // package root not found
  }
  return candidates.find((c) => existsSync(c)) ?? null;
}

/**
 * One worker per core but one, at most 4: the pass's own thread is busy too (keyword index,
 * store writes), so on two cores one worker keeps both busy and saves a worker's memory (a
 * tree-sitter heap and a V8 isolate, ~100 MB), measured as fast as two under load.
 * OPENCODE_RAG_CHUNK_WORKERS overrides (0 = chunk in-process).
 */
function defaultPoolSize(): number {
  const env = Number(process.env.OPENCODE_RAG_CHUNK_WORKERS);
  if (process.env.OPENCODE_RAG_CHUNK_WORKERS && Number.isInteger(env) && env >= 0) return env;
  return Math.max(1, Math.min(availableParallelism() - 1, 4));
}

export interface PoolOptions {
  /** A background pass: the workers drop their threads to the lowest priority. */
  lowPriority?: boolean;
  /** A big pass (`OPTIMISED_PARSING_MIN_BYTES`): the workers' parsing is worth optimising. */
  optimisedParsing?: boolean;
}

interface Slot {
  worker: Worker;
  /** Ids of the jobs sent to this worker and not yet answered or taken back, oldest first. */
  sent: number[];
}

export class ChunkPool {
  private readonly slots: Slot[] = [];
  private readonly waiting = new Map<number, { resolve: (r: PreparedFile) => void; file: FileToPrepare; slot: Slot }>();
  private readonly queue: Array<{ file: FileToPrepare; resolve: (r: PreparedFile) => void }> = [];
  private nextId = 1;
  private closed = false;
  /** Job claims shared with the workers; null where memory cannot be shared (nothing is taken back). */
  private readonly claims = typeof SharedArrayBuffer === "function" ? new Int32Array(new SharedArrayBuffer(CLAIM_SLOTS * 4)) : null;

  private constructor(script: string, size: number, config: RagConfig, root: string, options: PoolOptions) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(script, {
        workerData: { tunedProcess: ownProcessTuned(), compileLock: ownCompileLock() } satisfies WorkerStart,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      const slot: Slot = { worker, sent: [] };
      const init: WorkerInit = { type: "init", config, root, lowPriority: options.lowPriority === true, claims: this.claims, optimisedParsing: options.optimisedParsing === true };
      worker.postMessage(init);
      worker.on("message", (msg: { id: number; result: PreparedFile }) => {
        const w = this.waiting.get(msg.id);
        if (!w) return;
        this.waiting.delete(msg.id);
        forget(slot.sent, msg.id);
        w.resolve(msg.result);
        this.pump();
      });
      worker.on("error", (err) => this.failSlot(slot, err));
      worker.on("exit", () => this.failSlot(slot, new Error("chunking worker exited")));
      // Not unref'd: a pass awaiting its workers must keep the process alive. The pass closes
      // the pool when it ends, whatever happens.
      this.slots.push(slot);
    }
  }

  /** A pool, or null when workers are unavailable (no bundled worker script, one core). */
  static create(config: RagConfig, root: string, size = defaultPoolSize(), options: PoolOptions = {}): ChunkPool | null {
    if (size < 1) return null;
    const script = chunkWorkerScript();
    if (!script) return null;
    try {
      return new ChunkPool(script, size, config, root, options);
    } catch {
      return null;
    }
  }

  prepare(file: FileToPrepare): Promise<PreparedFile> {
    if (this.closed) return Promise.resolve({ path: file.path, kind: "error", error: "chunking pool closed" });
    return new Promise((resolve) => {
      this.queue.push({ file, resolve });
      this.pump();
    });
  }

  /**
   * The next job no worker has taken yet, removed from the queue, for the caller to do itself
   * and settle with `resolve`; undefined when every job is with a worker.
   */
  takeQueued(): { file: FileToPrepare; resolve: (r: PreparedFile) => void } | undefined {
    return this.queue.shift();
  }

  /**
   * The job sent last to a worker that has not started it, taken back for the caller to do
   * itself and settle with `resolve`; undefined when every job sent has been started. A worker
   * holds many jobs so that it never waits for this thread; taking back the last of them keeps
   * this thread from waiting for a worker (syn: its thread sat idle for 0.6 s of a 2 s pass
   * while the worker worked through the 64 files it held).
   */
  takeUnstarted(): { file: FileToPrepare; resolve: (r: PreparedFile) => void } | undefined {
    const claims = this.claims;
    if (!claims) return undefined;
    for (const slot of [...this.slots].sort((a, b) => b.sent.length - a.sent.length)) {
      for (let i = slot.sent.length - 1; i >= 0; i--) {
        const id = slot.sent[i];
        if (Atomics.compareExchange(claims, id % CLAIM_SLOTS, id, 0) !== id) break; // started: so were all before it
        slot.sent.splice(i, 1);
        const w = this.waiting.get(id)!;
        this.waiting.delete(id);
        return { file: w.file, resolve: w.resolve };
      }
    }
    return undefined;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.filter((s) => s.sent.length < IN_FLIGHT_PER_WORKER).sort((a, b) => a.sent.length - b.sent.length)[0];
      if (!slot) return;
      const job = this.queue.shift()!;
      const id = this.nextId++;
      slot.sent.push(id);
      this.waiting.set(id, { resolve: job.resolve, file: job.file, slot });
      if (this.claims) Atomics.store(this.claims, id % CLAIM_SLOTS, id);
      slot.worker.postMessage({ type: "job", id, file: job.file });
    }
  }

  /** A dead worker's jobs come back as errors; the pass records them and goes on. */
  private failSlot(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    for (const [id, w] of this.waiting) {
      if (w.slot !== slot) continue;
      this.waiting.delete(id);
      w.resolve({ path: w.file.path, kind: "error", error: `chunking worker failed: ${err.message}` });
    }
    if (this.slots.length === 0) {
      for (const job of this.queue.splice(0)) job.resolve({ path: job.file.path, kind: "error", error: `chunking worker failed: ${err.message}` });
    } else {
      this.pump();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate().catch(() => 0)));
  }
}

function forget(ids: number[], id: number): void {
  const i = ids.indexOf(id);
  if (i >= 0) ids.splice(i, 1);
}
