// Entry of a chunking worker thread (bundled to dist/chunk-worker.js). Holds its own
// tree-sitter parsers, so two workers chunk two files at once on two cores.
import { parentPort } from "node:worker_threads";
import type { RagConfig } from "../config/defaults.js";
import { loadCustomChunkers } from "../chunking/index.js";
import { prepareFile, oneLine, type FileToPrepare } from "./prepare-file.js";
import type { FileHandlerContext } from "./handlers.js";
import { lowerThisThread } from "./cpu-share.js";

export interface WorkerInit {
  type: "init";
  config: RagConfig;
  root: string;
  /** A background pass: the worker drops its own thread to the lowest priority. */
  lowPriority?: boolean;
}

export interface WorkerJob {
  type: "job";
  id: number;
  file: FileToPrepare;
}

let ctx: FileHandlerContext | null = null;
let ready: Promise<void> = Promise.resolve();

parentPort?.on("message", (msg: WorkerInit | WorkerJob) => {
  if (msg.type === "init") {
    ctx = { config: msg.config, chunking: msg.config.chunking, root: msg.root };
    if (msg.lowPriority) lowerThisThread();
    ready = (async () => {
      if (msg.config.chunkers.length > 0) await loadCustomChunkers(msg.config.chunkers, () => undefined);
    })().catch(() => undefined);
    return;
  }
  void (async () => {
    await ready;
    try {
      const result = await prepareFile(msg.file, ctx!, { registeredHandlers: false, blockingReads: true });
      parentPort!.postMessage({ id: msg.id, result });
    } catch (err) {
      parentPort!.postMessage({ id: msg.id, result: { path: msg.file.path, kind: "error", error: oneLine(err) } });
    }
  })();
});
