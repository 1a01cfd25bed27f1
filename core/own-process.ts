// V8 settings for a process opencode-rag owns: the CLI, and the `mcp` and `index --watch`
// servers it runs. A library leaves its host's V8 alone, so only those hosts call this, before
// any work. Bun (OpenCode's runtime, which runs the CLI when no node is on PATH) is not V8.
import { setFlagsFromString } from "node:v8";
import { setWasmTierChooser, type CompileForTiers } from "./wasm-tiers.js";

const OWN_PROCESS_V8_FLAGS = [
  // The young generation keeps its starting size (a few MB) instead of doubling up to 32 MB
  // (two 16 MB semi-spaces) once allocation is brisk, as it is all through a pass. Its objects
  // are batches of text, tokens and rows that die young either way, so collecting a smaller
  // nursery more often costs no measurable time: bench tree peak RSS 451-463 -> 402-410 MB,
  // 100k files 655-659 -> 617-634 MB, a serving process at 100k 277 -> 245-251 MB. Read at each
  // growth, so it takes effect at run time (--max-semi-space-size does only at process start).
  // V8 puts it back to 2 whenever it sets up an isolate: a worker sets it again (ownProcessTuned).
  "--semi-space-growth-factor=1",
];

/**
 * Taken when the process starts its first index pass (tuneOwnProcessForPasses), not before: a
 * process that only searches has a small heap, and collecting it fully more often only costs
 * time (a one-off query at 100k files: 582 -> 565 ms, median of 21 interleaved).
 */
const PASS_V8_FLAGS = [
  // The old generation may grow to 1.5x what survived the last full collection, where V8 would
  // allow up to 4x on a machine with memory to spare. An index pass's garbage is short-lived
  // (batches of text, tokens and rows), so the heap grew to ~3x its live objects: at 100k files
  // peak RSS 936 -> 703 MB, bench tree 602-631 -> 542 MB, each pass as fast within noise.
  // Read at each full collection, so it takes effect at run time, and holds for the process.
  "--heap-growing-percent=50",
];

/**
 * glibc's malloc settings for a process that runs big index passes, as environment variables:
 * glibc reads them only when a process starts, so the CLI runs the commands that may make big
 * passes in a child that has them (cli/relaunch.ts). One arena for every thread: by default
 * each of a pass's ~18 threads (LanceDB's, onnxruntime's, Node's) allocates from an arena of
 * its own, up to 16 on two cores, and each keeps the memory its thread freed. Bench tree peak
 * RSS 386-405 -> 346-353 MB (three passes each, interleaved), no slower (14.2-16.3 s against
 * 14.9-16.1). A library's host (OpenCode) keeps its own settings.
 */
export const PASS_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "1" };

/**
 * Names, in a child that runs a pass for another process, that process's pid: the child ends
 * itself once it is gone (cli/relaunch.ts followLauncher), which a SIGKILL of the launcher
 * leaves no other way to learn.
 */
export const LAUNCHER_ENV = "OPENCODE_RAG_LAUNCHER_PID";

/**
 * The environment of a child that runs passes for this process (the CLI's relaunch, the
 * big passes a watcher runs apart): a pass's allocator settings, and this process's pid to follow.
 */
export function passChildEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...PASS_MALLOC_ENV, ...extra, [LAUNCHER_ENV]: String(process.pid) };
}

let tuned = false;
let tunedForPasses = false;

/**
 * One cell shared by every thread of the process (a worker is handed it: `compileLock`): V8's
 * flags are the process's, and `--liftoff-only` is read when a module is compiled, so every
 * compile that chooses its tiers holds it; none sees a flag another thread set for its own.
 */
let compileLock: Int32Array | null = null;

/** The process's compile lock, for a worker's `tuneOwnProcess`; null until this process took the settings. */
export function ownCompileLock(): Int32Array | null {
  return compileLock;
}

/**
 * Takes opencode-rag's V8 settings; a worker passes the lock its process made. Each
 * WebAssembly module then compiles for the tiers its caller asks (core/wasm-tiers.ts): grammars
 * for the baseline tier only, as the whole process once was (`--liftoff-only`), the kernels for
 * every tier, the tree-sitter runtime for every tier in a big pass.
 */
export function tuneOwnProcess(lock?: Int32Array): void {
  if (process.versions.bun) return;
  tuned = true;
  for (const flag of OWN_PROCESS_V8_FLAGS) setFlagsFromString(flag);
  // A process started with V8's WebAssembly tiers chosen on its command line keeps them.
  if (/--(no-)?liftoff|--wasm-tier/.test(`${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`)) return;
  compileLock = lock ?? compileLock ?? new Int32Array(new SharedArrayBuffer(4));
  setWasmTierChooser(lockedTierChooser(compileLock, setFlagsFromString));
}

/**
 * How long a compile waits for the lock before taking it over. A compile holds it for
 * milliseconds (the biggest grammar, Objective-C's 7.7 MB: 35 ms); a worker ended in the middle
 * of one (a pass cancelled) runs no `finally` and would hold it for good.
 */
const STALE_COMPILE_LOCK_MS = 2000;

/**
 * Compiles holding `lock` (0 free, 1 held, shared by the process's threads), with
 * `--liftoff-only` set through `setFlags` for a baseline-only compile alone.
 */
export function lockedTierChooser(lock: Int32Array, setFlags: (flag: string) => void, staleAfterMs = STALE_COMPILE_LOCK_MS): CompileForTiers {
  return (tiers, compile) => {
    const giveUpAt = Date.now() + staleAfterMs;
    while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) {
      if (Date.now() >= giveUpAt) break; // held by a thread that is gone: it is this compile's now
      Atomics.wait(lock, 0, 1, 10);
    }
    if (tiers === "baseline") setFlags("--liftoff-only");
    try {
      return compile();
    } finally {
      if (tiers === "baseline") setFlags("--no-liftoff-only");
      Atomics.store(lock, 0, 0);
      Atomics.notify(lock, 0, 1);
    }
  };
}

/** In a process that took the settings, takes those of an index pass as well (once). */
export function tuneOwnProcessForPasses(): void {
  if (!tuned || tunedForPasses) return;
  tunedForPasses = true;
  for (const flag of PASS_V8_FLAGS) setFlagsFromString(flag);
}

/**
 * Whether this process took the settings. V8 resets the young generation's growth factor (to at
 * least 2, for every isolate of the process) while it sets up a worker thread's isolate, so a
 * worker of such a process takes them again as its first step (core/indexing/worker-v8.ts);
 * a library's host that did not take them is left alone.
 */
export function ownProcessTuned(): boolean {
  return tuned;
}
