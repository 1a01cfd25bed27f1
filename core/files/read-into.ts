// A file read into memory the caller provides (a WebAssembly kernel's, which then works on the
// file's bytes where the read put them): all at once; all but a part, which is read when asked
// for and later behind the rest; or block by block as its bytes are asked for. Node-only.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

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
 * Off this thread a big range is read in up to this many parts at once, each at least PART_MIN
 * bytes: filling fresh memory is mostly the kernel's work of first touching each page, which
 * threads share (38 MB: ~115 ms in one read, ~75 ms in four). Each part is one read call (a
 * chunked read would wait for this thread between chunks).
 */
const PARTS = 4;
const PART_MIN = 4 << 20;

/** How long a pending part waits before it is read behind the rest. */
const PENDING_PART_DELAY_MS = 1000;

/** A file read into memory the caller provides, but for a part that is read as it is asked for. */
export interface FileWithPartPending {
  /** The file's size; the pending part holds the file only where `ensure` was asked for. */
  bytes: Uint8Array;
  /** Makes sure [start, end) holds the file's bytes (a blocking read while the part is pending). */
  ensure(start: number, end: number): void;
}

/**
 * Reads the file at `path` into `alloc(its size)` but for the part `pendingPart` names from its
 * first `headBytes` and last `footBytes` (null: read it all), which is read off this thread
 * behind the rest; until that read is in, `ensure` reads what is asked for of it. So the caller
 * starts on the file before its pending part is read, and a process that exits first never
 * reads it. The file stays open until the part is in (a file replaced meanwhile is still read
 * as it was when opened).
 */
export async function readFileIntoLeavingPart(
  path: string,
  alloc: (size: number) => Uint8Array,
  headBytes: number,
  footBytes: number,
  pendingPart: (head: Uint8Array, foot: Uint8Array, size: number) => { start: number; end: number } | null,
): Promise<FileWithPartPending> {
  const handle = await open(path, "r");
  let pending = false;
  try {
    const size = (await handle.stat()).size;
    const bytes = alloc(size);
    const part = size >= headBytes + footBytes ? await readEnds(handle, path, bytes, headBytes, footBytes).then(() => pendingPart(bytes.subarray(0, headBytes), bytes.subarray(size - footBytes), size)) : null;
    if (part === null || part.start >= part.end) {
      await readRangeAsync(handle, path, bytes, 0, size);
      return { bytes, ensure: () => undefined };
    }
    await Promise.all([readRangeAsync(handle, path, bytes, 0, part.start), readRangeAsync(handle, path, bytes, part.end, size)]);
    let done = false;
    let failed: Error | null = null;
    pending = true;
    // Later, not now: the caller is about to work on the file (and, for a one-off search, exit),
    // and the part's read would share the machine with that work.
    const readPending = () =>
      void readRangeAsync(handle, path, bytes, part.start, part.end)
        .then(
          () => (done = true),
          (err: Error) => (failed = err),
        )
        .finally(() => void handle.close().catch(() => undefined));
    setTimeout(readPending, PENDING_PART_DELAY_MS).unref();
    return {
      bytes,
      ensure(start, end) {
        if (done || end <= part.start || start >= part.end) return;
        if (failed) throw new Error(`${path} could not be read: ${(failed as Error).message}`);
        readRange(handle.fd, path, bytes, Math.max(start, part.start), Math.min(end, part.end));
      },
    };
  } finally {
    if (!pending) await handle.close();
  }
}

async function readEnds(handle: FileHandle, path: string, bytes: Uint8Array, headBytes: number, footBytes: number): Promise<void> {
  await Promise.all([readRangeAsync(handle, path, bytes, 0, headBytes), readRangeAsync(handle, path, bytes, bytes.length - footBytes, bytes.length)]);
}

/** Reads [start, end) of the file into the same place of `bytes`: a big range in parts at once. */
async function readRangeAsync(handle: FileHandle, path: string, bytes: Uint8Array, start: number, end: number): Promise<void> {
  const parts = Math.max(1, Math.min(PARTS, Math.floor((end - start) / PART_MIN)));
  const step = Math.ceil((end - start) / parts);
  const readPart = async (from: number, to: number) => {
    for (let at = from; at < to; ) {
      const { bytesRead } = await handle.read(bytes, at, to - at, at);
      if (bytesRead === 0) throw new Error(`${path} ended early`);
      at += bytesRead;
    }
  };
  const reads: Promise<void>[] = [];
  for (let from = start; from < end; from += step) reads.push(readPart(from, Math.min(end, from + step)));
  await Promise.all(reads);
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
