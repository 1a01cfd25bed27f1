// The first import of a worker's entry, so that it runs before the rest of the worker loads:
// a worker of a process that took opencode-rag's V8 settings (core/own-process.ts) takes them
// again, since setting up the worker's isolate reset one of them for the whole process.
import { workerData } from "node:worker_threads";
import { tuneOwnProcess } from "../own-process.js";

/** What a pool tells its workers at start (`workerData`). */
export interface WorkerStart {
  tunedProcess: boolean;
}

if ((workerData as WorkerStart | null)?.tunedProcess) tuneOwnProcess();
