// The first line of an error's message (at most 300 characters): what a one-line error to the
// user may quote from an underlying failure. Portable: no Node built-ins.
export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg.split("\n")[0] || (err instanceof Error ? err.name : "error")).slice(0, 300);
}
