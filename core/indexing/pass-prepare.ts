// Steps 3 and 4 of a pass: read, hash and chunk the changed files, in batches, in worker
// threads when there is enough to chunk; workers prepare the next batches while the pass
// embeds and writes the current one.
import { ChunkPool, OPTIMISED_PARSING_MIN_BYTES, POOL_MIN_BYTES } from "./chunk-pool.js";
import { setParserRuntimeTiers } from "../chunking/index.js";
import { workerCanHandle, type FileHandlerContext } from "./handlers.js";
import { checkAbort, type PassState } from "./pass-state.js";
import { prepareFile, type FileToPrepare, type PreparedFile } from "./prepare-file.js";

/**
 * Files prepared and written together. Small batches start the embedding early and leave
 * little to embed and write once the last file is chunked (syn: 1.94 -> 1.77 s with 512 KB
 * instead of 2 MB); the batches prepared ahead bound memory (4 MB of files either way).
 */
const BATCH_MAX_FILES = 50;
const BATCH_MAX_BYTES = 512 * 1024;
/** Batches chunking workers may run ahead of the writer: keeps them busy, bounds memory. */
const PREFETCH_BATCHES = 8;

/** Prepares `changed` batch by batch and hands each batch, in order, to `apply`. */
export async function prepareInBatches(pass: PassState, changed: FileToPrepare[], apply: (prepared: PreparedFile[]) => Promise<void>): Promise<void> {
  const { env, config, progress } = pass;
  const totalBytes = changed.reduce((s, f) => s + f.size, 0);
  const cpu = env.cpu ?? null;
  // A background pass with much to chunk does it in low-priority workers, never on its host's
  // main thread, and on a one-core budget the workers and this thread take turns instead of
  // overlapping. A small one (a watcher's edit) chunks here: a few milliseconds a file once
  // the grammar is loaded (its first load, once per process, held the thread 130-195 ms at
  // 100k files), where starting a worker would cost that load at every pass. Its host lives
  // on, and a syntax tree's memory stays with the thread that grew it: a file past
  // indexing.maxFileSizeBytes (source up to 4 MB) is chunked in a worker that ends with the pass.
  const hasLargeFile = cpu !== null && changed.some((f) => f.size > config.indexing.maxFileSizeBytes);
  // A big pass optimises the tree-sitter runtime, in every thread: V8 shares one compiled module
  // among a process's threads, so the thread that compiles it first chooses for the others.
  const optimisedParsing = totalBytes >= OPTIMISED_PARSING_MIN_BYTES;
  if (optimisedParsing) setParserRuntimeTiers("all");
  const pool =
    totalBytes >= POOL_MIN_BYTES || hasLargeFile
      ? ChunkPool.create(config, env.root, cpu ? Math.max(1, cpu.chunkWorkers) : undefined, { lowPriority: !!cpu, optimisedParsing })
      : null;
  const prefetch = pool ? (cpu && cpu.cores < 2 ? 0 : PREFETCH_BATCHES) : 0;
  // A foreground pass's own thread chunks too while it would otherwise wait for the workers:
  // on two cores one worker plus this thread beat two workers (which contend with the
  // embedding and indexing here). A background pass keeps its host's thread free.
  const helpsWorkers = pool !== null && !cpu;
  const ctx: FileHandlerContext = { chunking: config.chunking, config, root: env.root };
  // In-process chunking runs one file at a time: it is CPU-bound anyway, and concurrent
  // first loads of a tree-sitter grammar in one thread are not safe.
  let inProcess: Promise<unknown> = Promise.resolve();
  const prepareHere = (f: FileToPrepare): Promise<PreparedFile> => {
    const run = inProcess.then(() => prepareFile(f, ctx));
    inProcess = run.catch(() => undefined);
    return run;
  };
  // A file counts as done once read and chunked: a small repository is one batch, whose
  // embedding and writing come at the end, and the count must move before that.
  const prepare = (f: FileToPrepare): Promise<PreparedFile> =>
    (pool && workerCanHandle(f.path) ? pool.prepare(f) : prepareHere(f)).then((p) => {
      progress.state.filesDone++;
      progress.report();
      return p;
    });
  try {
    const batches = prepareBatches(changed);
    const ahead: Array<Promise<PreparedFile[]>> = [];
    let queued = 0;
    const queueUpTo = (n: number) => {
      while (queued < batches.length && queued < n) ahead.push(Promise.all(batches[queued++].map(prepare)));
    };
    for (let b = 0; b < batches.length; b++) {
      queueUpTo(b + 1 + prefetch);
      const prepared = await (helpsWorkers ? chunkWhileWaiting(pool!, ahead.shift()!, prepareHere) : ahead.shift()!);
      progress.mark("prepare");
      checkAbort(pass);
      queueUpTo(b + 1 + (pool ? prefetch : 1));
      await apply(prepared);
      progress.mark("embed+write");
    }
  } finally {
    await pool?.close();
  }
}

/** The batches a pass reads, chunks and writes its changed files in (one store write each, at most). */
export function prepareBatches(files: FileToPrepare[]): FileToPrepare[][] {
  const out: FileToPrepare[][] = [];
  let cur: FileToPrepare[] = [];
  let bytes = 0;
  for (const f of files) {
    if (cur.length > 0 && (cur.length >= BATCH_MAX_FILES || bytes + f.size > BATCH_MAX_BYTES)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(f);
    bytes += f.size;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/**
 * Waits for `batch`, chunking on this thread meanwhile the jobs no worker has taken yet, then
 * those a worker holds but has not started (the last first); their results settle the same
 * promises a worker's would.
 */
async function chunkWhileWaiting<T>(pool: ChunkPool, batch: Promise<T>, prepareHere: (f: FileToPrepare) => Promise<PreparedFile>): Promise<T> {
  let settled = false;
  batch.then(
    () => (settled = true),
    () => (settled = true),
  );
  await Promise.resolve();
  while (!settled) {
    const job = pool.takeQueued() ?? pool.takeUnstarted();
    if (!job) break;
    job.resolve(await prepareHere(job.file));
  }
  return batch;
}
