// A whole file read into memory the caller provides (a WebAssembly kernel's, which then works
// on the file's bytes where the read put them). Node-only.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** Reads the file at `path` into `alloc(its size)` and returns that memory. */
export function readFileInto(path: string, alloc: (size: number) => Uint8Array): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const bytes = alloc(size);
    let at = 0;
    while (at < size) {
      const read = readSync(fd, bytes, at, size - at, at);
      if (read === 0) throw new Error(`${path} ended early`);
      at += read;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}
