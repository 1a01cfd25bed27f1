// V8 settings for a process opencode-rag owns: the CLI, and the `mcp` and `index --watch`
// servers it runs. A library leaves its host's V8 alone, so only those hosts call this, before
// any work. Bun (OpenCode's runtime, which runs the CLI when no node is on PATH) is not V8.
import { setFlagsFromString } from "node:v8";

const OWN_PROCESS_V8_FLAGS = [
  // WebAssembly on V8's baseline compiler only. Otherwise, once a big grammar has parsed (Swift,
  // Kotlin), V8 spends seconds optimising its lexer in the background and the process cannot
  // exit until that is done: `index` of a one-file Swift project took 6 s, 0.6 s of it work.
  // Parsing at the baseline tier costs ~5% of a full pass (three.js sources).
  "--liftoff-only",
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

export function tuneOwnProcess(): void {
  if (process.versions.bun) return;
  tuned = true;
  for (const flag of OWN_PROCESS_V8_FLAGS) setFlagsFromString(flag);
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
