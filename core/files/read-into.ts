// A file read into memory the caller provides (a WebAssembly kernel's, which then works on the
// file's bytes where the read put them): all at once, or block by block as its bytes are asked
// for. Node-only.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";

/** Reads the file at `path` into `alloc(its size)` and returns that memory. */
export function readFileInto(path: string, alloc: (size: number) => Uint8Array): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const bytes = alloc(fstatSync(fd).size);
    readRange(fd, path, bytes, 0, bytes.length);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * readFileInto() off this thread: the read runs in libuv's pool while this thread does other
 * work. One read call for the whole file (a chunked read would wait for this thread between chunks).
 */
export async function readFileIntoAsync(path: string, alloc: (size: number) => Uint8Array): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const bytes = alloc((await handle.stat()).size);
    let at = 0;
    while (at < bytes.length) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, at);
      if (bytesRead === 0) throw new Error(`${path} ended early`);
      at += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/** A file in memory the caller provides, filled as its bytes are asked for. */
export interface FileOnDemand {
  /** The file's size; only bytes passed to `ensure` (or all, once it returned true) hold the file. */
  bytes: Uint8Array;
  /** Reads the blocks covering [start, end) that are not in yet; true once the whole file is in. */
  ensure(start: number, end: number): boolean;
  /** Lets go of the file (later reads fail); a file read whole has been let go already. */
  close(): void;
}

/** Bytes a read on demand brings in at least. */
const BLOCK = 16 * 1024;
/** Once this share of the blocks has been asked for, the rest is read in one go. */
const READ_WHOLE_AFTER = 1 / 4;

/**
 * Opens the file at `path` into `alloc(its size)`, reading nothing yet. The file stays open until
 * it is read whole (a file replaced meanwhile is still read as it was when opened) or closed.
 */
export function fileIntoOnDemand(path: string, alloc: (size: number) => Uint8Array): FileOnDemand {
  const fd = openSync(path, "r");
  let bytes: Uint8Array;
  try {
    bytes = alloc(fstatSync(fd).size);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  const blocks = Math.ceil(bytes.length / BLOCK);
  const present = new Uint8Array(blocks);
  let presentCount = 0;
  let open = true;
  let whole = bytes.length === 0;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  if (whole) close();
  return {
    bytes,
    close,
    ensure(start, end) {
      if (whole) return true;
      if (!open) throw new Error(`${path} was closed before it was read`);
      const last = Math.min(blocks, Math.ceil(end / BLOCK));
      for (let b = Math.max(0, Math.floor(start / BLOCK)); b < last; b++) {
        if (present[b]) continue;
        readRange(fd, path, bytes, b * BLOCK, Math.min(bytes.length, (b + 1) * BLOCK));
        present[b] = 1;
        presentCount++;
      }
      if (presentCount >= blocks * READ_WHOLE_AFTER) {
        // Reading block by block what most uses need anyway costs a call each: the rest at once.
        for (let b = 0; b < blocks; b++) {
          if (present[b]) continue;
          let to = b + 1;
          while (to < blocks && !present[to]) to++;
          readRange(fd, path, bytes, b * BLOCK, Math.min(bytes.length, to * BLOCK));
          b = to;
        }
        whole = true;
        close();
      }
      return whole;
    },
  };
}

function readRange(fd: number, path: string, bytes: Uint8Array, start: number, end: number): void {
  let at = start;
  while (at < end) {
    const read = readSync(fd, bytes, at, end - at, at);
    if (read === 0) throw new Error(`${path} ended early`);
    at += read;
  }
}
