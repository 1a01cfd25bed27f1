// Binary detection the way git does it: a NUL byte in the first 8 KB. PDFs and images are
// binary but have their own handlers, so the indexer asks `hasOwnBinaryHandler` first.

const SNIFF_BYTES = 8192;

export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export const IMAGE_EXTENSIONS = [".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff"];

export function extensionOf(relPath: string): string {
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

export function isPdf(relPath: string): boolean {
  return extensionOf(relPath) === ".pdf";
}

export function isImage(relPath: string): boolean {
  return IMAGE_EXTENSIONS.includes(extensionOf(relPath));
}
