// Long synchronous stretches of a search (the keyword index's scans, ranking) would hold back
// callbacks that are due meanwhile: another library's I/O completions (LanceDB opening its
// table on its own threads, one round trip after another), a serving host's other requests.
// Portable: setImmediate where the runtime has it (Node, Bun), else a zero timeout.

/** Resolves once callbacks that are due have run. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));
}
