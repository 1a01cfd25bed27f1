// Small JSON state files that readers in other processes may open at any moment: written to
// a temporary name and renamed, so a reader sees the old or the new file, never half of one.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, JSON.stringify(value));
}

/** The parsed file, null when missing, or "corrupt" when it exists but is not valid JSON. */
export function readJsonState<T>(file: string): T | null | "corrupt" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return "corrupt";
  }
}

export function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // best effort: a leftover file is cleaned up by the next pass
  }
}
