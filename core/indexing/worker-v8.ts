// The first import of a worker's entry, so that it runs before the rest of the worker loads:
// a worker of a process that took opencode-rag's V8 settings (core/own-process.ts) takes them
// again, since setting up the worker's isolate reset one of them for the whole process, and
// compiles its grammars under the process's lock.
import { workerData } from "node:worker_threads";
import { tuneOwnProcess } from "../own-process.js";

/** What a pool tells its workers at start (`workerData`). */
export interface WorkerStart {
  tunedProcess: boolean;
  /** The process's compile lock (`ownCompileLock`). */
  compileLock: Int32Array | null;
}

const start = workerData as WorkerStart | null;
if (start?.tunedProcess) tuneOwnProcess(start.compileLock ?? undefined);
