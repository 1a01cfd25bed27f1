// State files that readers in other processes may open at any moment: written to a temporary
// name and renamed, so a reader sees the old or the new file, never half of one.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  writeFileAtomicWith(file, (write) => write(data));
}

/** The same for a file written in pieces: `fill` calls `write` with each, in order. */
export function writeFileAtomicWith(file: string, fill: (write: (piece: string | Uint8Array) => void) => void): void {
  const tmp = tmpFileFor(file);
  try {
    const fd = openSync(tmp, "w");
    try {
      fill((piece) => writeAll(fd, piece));
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** The same, for a `fill` that pauses on its way (`runInSlices`); resolves once the file is in place. */
export async function writeFileAtomicWithAsync(file: string, fill: (write: (piece: string | Uint8Array) => void) => Promise<void>): Promise<void> {
  const tmp = tmpFileFor(file);
  try {
    const fd = openSync(tmp, "w");
    try {
      await fill((piece) => writeAll(fd, piece));
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** A name beside `file` (its folder made) that no other writer uses. */
function tmpFileFor(file: string): string {
  mkdirSync(dirname(file), { recursive: true });
  return `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
}

/** writeSync may write less than it was given (a full pipe, a signal): the rest follows. */
function writeAll(fd: number, piece: string | Uint8Array): void {
  const bytes = typeof piece === "string" ? Buffer.from(piece) : piece;
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, JSON.stringify(value));
}

/** The parsed file, null when missing, or "corrupt" when it exists but is not valid JSON. */
export function readJsonState<T>(file: string): T | null | "corrupt" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return "corrupt";
  }
}

export function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // best effort: a leftover file is cleaned up by the next pass
  }
}
