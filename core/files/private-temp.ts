// A folder of the system's temporary folder that only this user can use: where a running
// engine's query socket lives, and compiled-code caches. Node-only.
import { mkdirSync, statSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/** tmpdir()/opencode-rag-<uid>, created private; throws when it exists but is not ours alone. */
export function privateTempDir(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : userInfo().username;
  const dir = join(tmpdir(), `opencode-rag-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A folder someone else created (or opened up) could hold their files in place of ours.
  const st = statSync(dir);
  if (typeof process.getuid === "function" && (st.uid !== process.getuid() || (st.mode & 0o077) !== 0)) {
    throw new Error(`${dir} is not private to this user (owner ${st.uid}, mode ${(st.mode & 0o777).toString(8)}); remove it`);
  }
  return dir;
}
