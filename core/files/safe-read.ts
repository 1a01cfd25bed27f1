// Reading a workspace file without trusting what the path turned out to be: a FIFO would block
// a read forever, a device (/dev/zero) would grow it without end, and a path can change between
// the check and the read. So: open without blocking, fstat the opened descriptor, read only a
// regular file, and never more than a cap. Node only.
import { constants, type Stats } from "node:fs";
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
  const flags = OPEN_FLAGS | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  const fh = await open(path, flags);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new UnreadableFileError(`${path} is not a regular file`, "not-regular", st);
    if (st.size > options.maxBytes) throw new UnreadableFileError(`${path} is larger than ${options.maxBytes} bytes (${st.size})`, "too-large", st);
    // Read to the size fstat gave, plus one byte to notice a file growing under us.
    const buf = Buffer.allocUnsafe(st.size + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n === buf.length) {
        if (n > options.maxBytes) throw new UnreadableFileError(`${path} grew past ${options.maxBytes} bytes while being read`, "too-large", st);
        break;
      }
    }
    return buf.subarray(0, n);
  } finally {
    await fh.close();
  }
}
