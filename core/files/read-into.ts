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

/** A big file is read in up to this many parts at once, each at least PART_MIN bytes. */
const PARTS = 4;
const PART_MIN = 4 << 20;

/**
 * readFileInto() off this thread: the reads run in libuv's pool while this thread does other
 * work. Each part is one read call (a chunked read would wait for this thread between chunks);
 * a big file's parts run at once, because filling fresh memory is mostly the kernel's work of
 * first touching each page, which threads share (38 MB: ~115 ms in one read, ~75 ms in four).
 */
export async function readFileIntoAsync(path: string, alloc: (size: number) => Uint8Array): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const bytes = alloc((await handle.stat()).size);
    const parts = Math.max(1, Math.min(PARTS, Math.floor(bytes.length / PART_MIN)));
    const step = Math.ceil(bytes.length / parts);
    const readPart = async (start: number, end: number) => {
      for (let at = start; at < end; ) {
        const { bytesRead } = await handle.read(bytes, at, end - at, at);
        if (bytesRead === 0) throw new Error(`${path} ended early`);
        at += bytesRead;
      }
    };
    const reads: Promise<void>[] = [];
    for (let start = 0; start < bytes.length; start += step) reads.push(readPart(start, Math.min(bytes.length, start + step)));
    await Promise.all(reads);
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
