// Entry of a chunking worker thread (bundled to dist/chunk-worker.js). Holds its own
// tree-sitter parsers, so two workers chunk two files at once on two cores.
import "./worker-v8.js";
import { parentPort } from "node:worker_threads";
import type { RagConfig } from "../config/defaults.js";
import { loadCustomChunkers, setParserRuntimeTiers } from "../chunking/index.js";
import { oneLine } from "../error-line.js";
import { prepareFile, type FileToPrepare, type PreparedFile } from "./prepare-file.js";
import type { FileHandlerContext } from "./handlers.js";
import { lowerThisThread } from "./cpu-share.js";

export interface WorkerInit {
  type: "init";
  config: RagConfig;
  root: string;
  /** A background pass: the worker drops its own thread to the lowest priority. */
  lowPriority?: boolean;
  /** Job claims shared with the pool (chunk-pool.ts); null: every job sent is this worker's. */
  claims?: Int32Array | null;
  /** A big pass: the tree-sitter runtime is compiled for V8's optimising tier too (core/wasm-tiers.ts). */
  optimisedParsing?: boolean;
}

export interface WorkerJob {
  type: "job";
  id: number;
  file: FileToPrepare;
}

let ctx: FileHandlerContext | null = null;
let ready: Promise<void> = Promise.resolve();
let claims: Int32Array | null = null;
/** Jobs received and not yet done, the one running first. */
const jobs: WorkerJob[] = [];

/** Whether this worker may start job `id`: false when the pool took it back first (it does it, and answers it). */
function claim(id: number): boolean {
  return !claims || Atomics.compareExchange(claims, id % claims.length, id, 0) === id;
}

parentPort?.on("message", (msg: WorkerInit | WorkerJob) => {
  if (msg.type === "init") {
    ctx = { config: msg.config, chunking: msg.config.chunking, root: msg.root };
    claims = msg.claims ?? null;
    if (msg.lowPriority) lowerThisThread();
    if (msg.optimisedParsing) setParserRuntimeTiers("all");
    ready = (async () => {
      if (msg.config.chunkers.length > 0) await loadCustomChunkers(msg.config.chunkers, () => undefined);
    })().catch(() => undefined);
    return;
  }
  jobs.push(msg);
  if (jobs.length === 1) void runJobs();
});

/**
 * Jobs run one after another, each claimed as it starts: one at a time is all the thread can
 * do anyway, a grammar's first load must not overlap another's, and a job not yet started can
 * still be taken back by the pool.
 */
async function runJobs(): Promise<void> {
  await ready;
  while (jobs.length > 0) {
    const job = jobs[0];
    if (claim(job.id)) parentPort!.postMessage({ id: job.id, result: await prepared(job) });
    jobs.shift();
  }
}

async function prepared(job: WorkerJob): Promise<PreparedFile> {
  try {
    return await prepareFile(job.file, ctx!, { registeredHandlers: false, blockingReads: true });
  } catch (err) {
    return { path: job.file.path, kind: "error", error: oneLine(err) };
  }
}
