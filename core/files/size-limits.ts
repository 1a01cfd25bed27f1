// How large a file may be to be indexed or read whole. One limit for every file, and a larger
// one for source code named as such: a compiler's type checker or semantic analyser is one
// hand-written file of 1.5–3 MB (TypeScript's `checker.ts`, Zig's `Sema.zig`), the file its
// project's hardest questions are about, while the other files past 1 MB are mostly data,
// bundles and generated tables. What such a file holds decides the rest
// (core/indexing/large-source.ts).

export interface FileSizeLimits {
  /** Any file larger than this is left out (`indexing.maxFileSizeBytes`). */
  maxFileSizeBytes: number;
  /** Source code (`isSourcePath`) may be this large (`indexing.maxSourceFileSizeBytes`); absent: no exception. */
  maxSourceFileSizeBytes?: number;
  /** Whether a path names source code in a programming language (by its name alone). */
  isSourcePath?: (path: string) => boolean;
}

export interface SizeLimit {
  bytes: number;
  /** The config key that sets it, for the reason a file is left out. */
  key: "indexing.maxFileSizeBytes" | "indexing.maxSourceFileSizeBytes";
}

export function sizeLimitFor(path: string, limits: FileSizeLimits): SizeLimit {
  const source = limits.maxSourceFileSizeBytes;
  if (source !== undefined && source > limits.maxFileSizeBytes && limits.isSourcePath?.(path)) {
    return { bytes: source, key: "indexing.maxSourceFileSizeBytes" };
  }
  return { bytes: limits.maxFileSizeBytes, key: "indexing.maxFileSizeBytes" };
}

/**
 * The limit a file of `size` bytes is over, or null. The path is looked at only past the
 * general limit: a walk asks for every file of the workspace on every pass.
 */
export function exceededLimit(path: string, size: number, limits: FileSizeLimits): SizeLimit | null {
  if (size <= limits.maxFileSizeBytes) return null;
  const limit = sizeLimitFor(path, limits);
  return size > limit.bytes ? limit : null;
}

/** "larger than indexing.maxFileSizeBytes (1500000 > 1048576 bytes)". */
export function tooLargeReason(size: number, limit: SizeLimit): string {
  return `larger than ${limit.key} (${size} > ${limit.bytes} bytes)`;
}
