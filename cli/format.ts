// Small text helpers for terminal output: numbers, sizes, durations, a progress bar.
import type { IndexProgress, IndexSummary } from "../core/engine-types.js";
import { formatCount } from "../core/format-count.js";

export { formatCount };

/** "1 file", "2 files". */
export function plural(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** Throughput that stays readable for tiny passes: KB/s below 0.1 MB/s. */
export function formatRate(bytes: number, secs: number): string {
  if (secs <= 0) return "-- MB/s";
  const mb = bytes / 1024 / 1024 / secs;
  return mb >= 0.1 ? `${mb.toFixed(1)} MB/s` : `${Math.round((bytes / 1024 / secs) * 10) / 10} KB/s`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")} min`;
}

/** One progress line: bar, files, chunks, throughput, ETA. */
export function progressLine(p: IndexProgress, width = 24): string {
  const frac = p.filesTotal > 0 ? Math.min(1, p.filesDone / p.filesTotal) : 0;
  const filled = Math.round(frac * width);
  const bar = "#".repeat(filled) + "-".repeat(width - filled);
  const secs = p.elapsedMs / 1000;
  const eta = frac > 0.02 && frac < 1 ? formatDuration((p.elapsedMs / frac) * (1 - frac)) : "--";
  if (p.phase === "scanning") return `scanning files…`;
  return `[${bar}] ${formatCount(p.filesDone)}/${formatCount(p.filesTotal)} files · ${plural(p.chunksDone, "chunk")} · ${formatRate(p.bytesDone, secs)} · ETA ${eta} · ${p.phase}`;
}

export function summaryLine(s: IndexSummary): string {
  const parts = [
    `indexed ${plural(s.filesIndexed, "file")}`,
    `${formatCount(s.filesUnchanged)} unchanged`,
    `${formatCount(s.filesDeleted)} deleted`,
  ];
  if (s.filesSkipped) parts.push(`${formatCount(s.filesSkipped)} skipped`);
  parts.push(`+${formatCount(s.chunksAdded)}/-${formatCount(s.chunksRemoved)} chunks`);
  if (s.chunksEmbedded || s.chunksFromCache || s.chunksReused) {
    let vectors = `${formatCount(s.chunksEmbedded)} embedded`;
    if (s.chunksFromCache) vectors += `, ${formatCount(s.chunksFromCache)} from cache`;
    if (s.chunksReused) vectors += `, ${formatCount(s.chunksReused)} reused`;
    parts.push(vectors);
  }
  const secs = s.durationMs / 1000;
  if (s.bytesRead > 0 && secs > 0) parts.push(`${formatBytes(s.bytesRead)} read (${formatRate(s.bytesRead, secs)})`);
  parts.push(`in ${formatDuration(s.durationMs)}`);
  return parts.join(", ");
}

/**
 * Text from the index (file names, code, descriptions) made safe to print on a terminal:
 * ESC, CSI, OSC, BEL, carriage returns and other control characters are shown escaped
 * (`\x1b`) instead of being obeyed, and so are the bidirectional overrides that can make
 * code read differently than it runs. Tabs stay; newlines stay only with `keepNewlines`.
 */
export function terminalSafe(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (ch) => {
    if (ch === "\n" && options.keepNewlines) return ch;
    const code = ch.charCodeAt(0);
    if (ch === "\n") return "\\n";
    if (ch === "\r") return "\\r";
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
