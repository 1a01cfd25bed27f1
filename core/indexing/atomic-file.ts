// State files that readers in other processes may open at any moment: written to a temporary
// name and renamed, so a reader sees the old or the new file, never half of one.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  writeFileAtomicWith(file, (write) => write(data));
}

/** The same for a file written in pieces: `fill` calls `write` with each, in order. */
export function writeFileAtomicWith(file: string, fill: (write: (piece: string | Uint8Array) => void) => void): void {
  const out = openBeside(file);
  try {
    fill(out.write);
  } catch (err) {
    out.discard();
    throw err;
  }
  out.commit();
}

/** The same, for a `fill` that pauses on its way (`runInSlices`); resolves once the file is in place. */
export async function writeFileAtomicWithAsync(file: string, fill: (write: (piece: string | Uint8Array) => void) => Promise<void>): Promise<void> {
  const out = openBeside(file);
  try {
    await fill(out.write);
  } catch (err) {
    out.discard();
    throw err;
  }
  out.commit();
}

/**
 * A temporary file beside `file` (its folder made) that no other writer uses: `commit` puts it
 * in `file`'s place, `discard` removes it.
 */
function openBeside(file: string): { write: (piece: string | Uint8Array) => void; commit: () => void; discard: () => void } {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  let fd: number;
  try {
    fd = openSync(tmp, "w");
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  const discard = () => {
    try {
      closeSync(fd);
    } finally {
      rmSync(tmp, { force: true });
    }
  };
  return {
    write: (piece) => writeAll(fd, piece),
    commit: () => {
      try {
        closeSync(fd);
        renameSync(tmp, file);
      } catch (err) {
        rmSync(tmp, { force: true });
        throw err;
      }
    },
    discard,
  };
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
