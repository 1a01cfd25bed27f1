// Keeps a background indexer (the plugin's, `index --watch`) a good neighbour: at most a share
// of the cores busy, and its threads at low priority, so the editor and the agent answer
// promptly while a big workspace indexes. Node-only (os, /proc); every call is best effort.
import { readdirSync } from "node:fs";
import { availableParallelism, constants, setPriority } from "node:os";

/** Threads a background pass may keep busy, from `indexing.maxCpuShare`. */
export interface CpuBudget {
  /** Cores the pass may use: at least one. */
  cores: number;
  /** Threads of the local embedding runtime (it runs on the pass's thread plus helpers). */
  embeddingThreads: number;
  /** Chunking worker threads besides the pass's own thread (0: chunk in-process). */
  chunkWorkers: number;
}

export function cpuBudget(share: number, configuredThreads: number, cores = availableParallelism()): CpuBudget {
  const budget = Math.max(1, Math.floor(cores * share));
  return {
    cores: budget,
    embeddingThreads: Math.max(1, Math.min(configuredThreads, budget)),
    // The pass's own thread is one of the budget's cores; workers get the rest (at most 4, as
    // in a foreground pass).
    chunkWorkers: Math.min(budget - 1, 4),
  };
}

/** Nice value of background threads: the lowest priority, so any other program runs first. */
export const BACKGROUND_NICE = constants.priority.PRIORITY_LOW;

/**
 * Lowers the calling thread's priority (on Linux a nice value is per thread, and threads it
 * starts later inherit it). False where the system refuses or has no such notion.
 */
export function lowerThisThread(): boolean {
  try {
    setPriority(0, BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}

/** Thread ids of this process (Linux); empty where /proc is not available. */
export function processThreadIds(): Set<number> {
  try {
    return new Set(readdirSync("/proc/self/task").map(Number).filter((n) => Number.isInteger(n) && n > 0));
  } catch {
    return new Set();
  }
}

/**
 * Runs `start` (which creates native threads: the embedding runtime's pool) and lowers the
 * priority of every thread that appeared meanwhile. Inside a host process (OpenCode) the
 * host's own threads keep their priority; only the indexer's new ones drop. Linux only: on
 * other systems the threads keep their priority, and the share alone applies.
 */
export async function lowerThreadsStartedBy<T>(start: () => Promise<T>): Promise<{ value: T; lowered: number }> {
  const before = processThreadIds();
  const value = await start();
  let lowered = 0;
  if (before.size > 0) {
    for (const tid of processThreadIds()) {
      if (before.has(tid)) continue;
      try {
        setPriority(tid, BACKGROUND_NICE);
        lowered++;
      } catch {
        // the thread ended meanwhile, or the system refuses: it keeps its priority
      }
    }
  }
  return { value, lowered };
}
