// Binary detection the way git does it (a NUL byte in the first 8 KB), except that UTF-16 text
// is recognised and decoded: Windows tools write UTF-16LE (with a byte order mark, sometimes
// without), whose ASCII characters all carry a NUL byte. PDFs and images are binary but have
// their own file handlers, which the indexer asks first. No Node built-ins: the
// chunker (browser build included) decodes file bytes through this module.

const SNIFF_BYTES = 8192;

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be";

/** How a file's bytes are text: the encoding and the length of its byte order mark; null = binary. */
export function textEncodingOf(bytes: Uint8Array): { encoding: TextEncoding; bom: number } | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", bom: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", bom: 2 };
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let zeros = 0;
  for (let i = 0; i < n; i++) if (bytes[i] === 0) zeros++;
  if (zeros === 0) return { encoding: "utf-8", bom: bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0 };
  const bomless = bomlessUtf16(bytes.subarray(0, n & ~1));
  return bomless ? { encoding: bomless, bom: 0 } : null;
}

export function looksBinary(bytes: Uint8Array): boolean {
  return textEncodingOf(bytes) === null;
}

/**
 * UTF-16 without a byte order mark, judged by where the NUL bytes fall: mostly-ASCII text has
 * one in (nearly) every code unit, always on the same side, and never two in one unit. The
 * decoded sample must then read as text (no replacement or control characters to speak of),
 * which a table of 16-bit numbers does not.
 */
function bomlessUtf16(sample: Uint8Array): TextEncoding | null {
  const units = sample.length / 2;
  if (units < 2) return null;
  let lowZero = 0;
  let highZero = 0;
  for (let i = 0; i < sample.length; i += 2) {
    const a = sample[i];
    const b = sample[i + 1];
    if (a === 0 && b === 0) return null;
    if (a === 0) lowZero++;
    else if (b === 0) highZero++;
  }
  // Little-endian ASCII is `x 00`; big-endian `00 x`.
  const [encoding, same, other] = highZero >= lowZero ? (["utf-16le", highZero, lowZero] as const) : (["utf-16be", lowZero, highZero] as const);
  if (same < units * 0.3 || other > units * 0.02) return null;
  const text = decodeUtf16(sample, encoding);
  let odd = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c)) odd++;
  }
  return odd <= text.length * 0.01 ? encoding : null;
}

function decodeUtf16(bytes: Uint8Array, encoding: "utf-16le" | "utf-16be"): string {
  if (encoding === "utf-16le") return new TextDecoder("utf-16le").decode(bytes);
  // Swapped into little-endian: not every runtime's TextDecoder knows utf-16be.
  const swapped = new Uint8Array(bytes.length & ~1);
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    swapped[i] = bytes[i + 1];
    swapped[i + 1] = bytes[i];
  }
  return new TextDecoder("utf-16le").decode(swapped);
}

/** A file's text (UTF-8 or UTF-16, byte order mark removed), or null when it looks binary. */
export function decodeFileText(bytes: Uint8Array): string | null {
  const found = textEncodingOf(bytes);
  if (!found) return null;
  const body = bytes.subarray(found.bom);
  if (found.encoding === "utf-8") return new TextDecoder("utf-8", { ignoreBOM: true }).decode(body);
  return decodeUtf16(body, found.encoding);
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
