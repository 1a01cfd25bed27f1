// Reading a workspace file without trusting what the path turned out to be: a FIFO would block
// a read forever, a device (/dev/zero) would grow it without end, and a path can change between
// the check and the read. So: open without blocking, fstat the opened descriptor, read only a
// regular file, and never more than a cap. Node only.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";

export class UnreadableFileError extends Error {
  constructor(
    message: string,
    /** not-regular: a FIFO, socket, device or folder; too-large: over the cap. */
    readonly reason: "not-regular" | "too-large",
    readonly stats: Stats,
  ) {
    super(message);
    this.name = "UnreadableFileError";
  }
}

// O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export interface SafeReadOptions {
  /** Refuse files larger than this many bytes. */
  maxBytes: number;
  /** Refuse a symlink as the last path component (the caller resolved the real path already). */
  noFollow?: boolean;
}

/** The bytes of a regular file of at most `maxBytes`; UnreadableFileError for anything else. */
export async function readRegularFile(path: string, options: SafeReadOptions): Promise<Buffer> {
  const fh = await open(path, openFlags(options));
  try {
    const st = await fh.stat();
    const buf = bufferFor(path, st, options.maxBytes);
    let n = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0 || (n += bytesRead) === buf.length) break;
    }
    return filled(path, buf, n, st, options.maxBytes);
  } finally {
    await fh.close();
  }
}

/**
 * readRegularFile with blocking calls, for a chunking worker's own thread: four promise
 * round trips per file (open, fstat, read, close) cost a third of its file time on the bench
 * tree. Never call it on the main thread of a host.
 */
export function readRegularFileSync(path: string, options: SafeReadOptions): Buffer {
  const fd = openSync(path, openFlags(options));
  try {
    const st = fstatSync(fd);
    const buf = bufferFor(path, st, options.maxBytes);
    let n = 0;
    for (;;) {
      const bytesRead = readSync(fd, buf, n, buf.length - n, n);
      if (bytesRead === 0 || (n += bytesRead) === buf.length) break;
    }
    return filled(path, buf, n, st, options.maxBytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Up to `maxBytes` of a regular file's start, with blocking calls (a few KB: the query path
 * reads generators' marks so). UnreadableFileError for anything but a regular file.
 */
export function readRegularFileHeadSync(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnreadableFileError(`${path} is not a regular file`, "not-regular", st);
    const buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes));
    let n = 0;
    while (n < buf.length) {
      const bytesRead = readSync(fd, buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function openFlags(options: SafeReadOptions): number {
  return OPEN_FLAGS | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
}

/** A buffer for the opened file, refusing what is not a regular file or is over the cap. */
function bufferFor(path: string, st: Stats, maxBytes: number): Buffer {
  if (!st.isFile()) throw new UnreadableFileError(`${path} is not a regular file`, "not-regular", st);
  if (st.size > maxBytes) throw new UnreadableFileError(`${path} is larger than ${maxBytes} bytes (${st.size})`, "too-large", st);
  // The size fstat gave, plus one byte to notice a file growing under us.
  return Buffer.allocUnsafe(st.size + 1);
}

/** The bytes read; a full buffer means the file grew since fstat, refused past the cap. */
function filled(path: string, buf: Buffer, n: number, st: Stats, maxBytes: number): Buffer {
  if (n === buf.length && n > maxBytes) throw new UnreadableFileError(`${path} grew past ${maxBytes} bytes while being read`, "too-large", st);
  return buf.subarray(0, n);
}
