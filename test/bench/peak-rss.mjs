// A process's own peak resident memory. Linux keeps ru_maxrss (`process.resourceUsage().maxRSS`)
// across fork and exec, so a child the bench spawns reports the bench's size when that is the
// larger (a query process of 125 MB read as the harness's 209 MB); VmHWM in /proc/self/status
// is the process's own peak. Elsewhere ru_maxrss stands in.
import { readFileSync, writeFileSync } from "node:fs";

export function peakRssMb() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // no /proc
  }
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Starts the peak again from the memory held now (Linux: "5" to /proc/self/clear_refs), so a
 * section run inside the bench's process measures its own peak, not an earlier section's.
 */
export function resetPeakRss() {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    // not Linux: the peak stays the process's
  }
}
