// A CommonJS file loaded with V8's code cache, for the one big file every search loads
// (LanceDB's and Arrow's JavaScript, ~0.9 MB): compiling it is ~17 ms of each fresh process
// that Node 20 does not cache. The cache is a file in the user's private temporary folder, named
// by a hash of Node's version and the file's bytes; V8 checks it against its version and flags
// too, and one it refuses (or a damaged one) is compiled without and written again. Node
// 22.1+ has a cache of its own (module.enableCompileCache, which the CLI turns on): there the
// file is required as usual, as it is in a process opencode-rag does not own. Node-only.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import nodeModule, { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import vm from "node:vm";
import { ownProcessTuned } from "../own-process.js";
import { privateTempDir } from "./private-temp.js";

/** What of node:module this uses beyond its types (wrap is Node's own CommonJS wrapper). */
const cjs = nodeModule as unknown as { wrap(source: string): string; getCompileCacheDir?: () => string | undefined };

/**
 * The exports of the CommonJS file at `path`, compiled with a code cache where this process
 * may keep one (see above); otherwise required as usual.
 */
export function requireWithCodeCache(path: string): unknown {
  if (!mayKeepCodeCache()) return createRequire(path)(path);
  const bytes = readFileSync(path);
  const cacheFile = codeCacheFile(path, bytes);
  if (cacheFile === null) return createRequire(path)(path);
  const source = bytes.toString("utf8");
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined; // none yet
  }
  const script = new vm.Script(cjs.wrap(source), { filename: path, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    // At exit the cache holds every function the process compiled, not just the top level.
    process.once("exit", () => writeCodeCache(cacheFile, script));
  }
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, createRequire(path), module, path, dirname(path));
  return module.exports;
}

/**
 * Whether this process keeps code caches of its own: not one opencode-rag does not own (a
 * library's host keeps its own files and exit handlers), not under Bun, not where Node's own
 * cache is on.
 */
function mayKeepCodeCache(): boolean {
  return ownProcessTuned() && !process.versions.bun && !cjs.getCompileCacheDir?.();
}

/**
 * Where the cache of the file `path` holding `bytes` is kept, or null without a private folder.
 * Named by a hash of the bytes (an installed package's files all carry the same time, so size
 * and time would not tell two versions apart) and Node's version; V8 checks its own version and
 * flags as it reads the cache.
 */
function codeCacheFile(path: string, bytes: Buffer): string | null {
  try {
    const key = createHash("sha1").update(`${process.version}\0${process.arch}\0`).update(bytes).digest("hex").slice(0, 16);
    return join(privateTempDir(), `${basename(path)}-${key}.v8-cache`);
  } catch {
    return null;
  }
}

/** A cache of the same file's other versions (an upgrade, a rebuild) unwritten this long is removed. */
const STALE_CACHE_MS = 7 * 24 * 3600 * 1000;

function writeCodeCache(file: string, script: vm.Script): void {
  try {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file); // whole or not at all, whatever other process reads it
    removeStaleCaches(file);
  } catch {
    // a cache is an optimisation: a full disk or a removed folder only means compiling next time
  }
}

function removeStaleCaches(kept: string): void {
  const dir = dirname(kept);
  const prefix = basename(kept).replace(/-[0-9a-f]+\.v8-cache$/, "-");
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (path === kept || !name.startsWith(prefix) || !name.endsWith(".v8-cache")) continue;
    if (Date.now() - statSync(path).mtimeMs > STALE_CACHE_MS) unlinkSync(path);
  }
}
