// A short, fast, portable (no Node built-ins) content hash for ids that only need to tell texts
// apart within one index: 32-bit FNV-1a as 8 hex digits. Not for anything security-related.
export function fnv1aHex(text: string): string {
  return fnv1a(text).toString(16).padStart(8, "0");
}

/** The same hash as a number. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
