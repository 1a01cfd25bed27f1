// Long synchronous stretches of a search (the keyword index's scans, ranking) or of a pass (its
// keyword snapshot) would hold back callbacks that are due meanwhile: another library's I/O
// completions (LanceDB opening its table on its own threads, one round trip after another), a
// serving host's other requests.
// Portable: setImmediate where the runtime has it (Node, Bun), else a zero timeout.

/** Resolves once callbacks that are due have run. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

/**
 * Long work written as a generator that yields wherever it may pause (a merge or snapshot of
 * a large keyword index: ~1.5 s at 100k files). Its return value is the work's result.
 */
export type Steps<T> = Generator<void, T, void>;

/** How long work run in slices keeps the thread before the event loop gets a turn. */
const SLICE_MS = 20;

/** Runs the steps to the end without pausing. */
export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs the steps, letting the event loop turn every `sliceMs` or so: a host serving requests
 * on this thread (OpenCode's server, an MCP client's session) answers them meanwhile.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let sliceStart = Date.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (Date.now() - sliceStart >= sliceMs) {
      await yieldToEventLoop();
      sliceStart = Date.now();
    }
  }
}

/**
 * Steps that run `block(from, to)` over [0, n) in blocks of `size`, a pause before each. The
 * loop over the items stays in `block`, a plain function: V8 optimises a loop with a pause in
 * it less well (a first index's keyword merges ran ~15% slower so).
 */
export function* inBlocks(n: number, size: number, block: (from: number, to: number) => void): Steps<void> {
  for (let from = 0; from < n; from += size) {
    yield;
    block(from, Math.min(n, from + size));
  }
}
