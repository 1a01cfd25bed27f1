// The first line of an error's message (at most 300 characters): what a one-line error to the
// user may quote from an underlying failure. Portable: no Node built-ins.

/** `, /usr/local/cargo/registry/src/…/commit.rs:646:26`: where in LanceDB's Rust source it failed. */
const RUST_SOURCE = /,?\s*(?:[A-Za-z]:)?[\\/]?(?:[^\s,]*[\\/])?src[\\/][^\s,]*\.rs:\d+(?::\d+)?/g;

/**
 * Drops Rust source locations from a LanceDB error, and the "Caused by" tail that repeats
 * the message: neither tells a user anything they can act on.
 */
export function cleanErrorMessage(msg: string): string {
  let out = msg.replace(RUST_SOURCE, "");
  const [head, ...causes] = out.split(/\s*Caused by:\s*/);
  const extra = causes.map((c) => c.trim()).filter((c) => c && !head.includes(c));
  out = [head.trim(), ...extra].join(": ");
  return out;
}

export function oneLine(err: unknown): string {
  const msg = cleanErrorMessage(err instanceof Error ? err.message : String(err));
  return (msg.split("\n").find((l) => l.trim()) ?? (err instanceof Error ? err.name : "error")).trim().slice(0, 300) || "error";
}
