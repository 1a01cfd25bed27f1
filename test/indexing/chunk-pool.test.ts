// A pass with more than POOL_MIN_BYTES to chunk hands files to worker threads, and a foreground
// pass's own thread chunks whatever the workers have not taken yet while it waits. Whoever
// chunks a file, the index must be the one an in-process pass builds.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { statSync } from "node:fs";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { ChunkPool, POOL_MIN_BYTES } from "../../core/indexing/chunk-pool.js";
import type { FileToPrepare, PreparedFile } from "../../core/indexing/prepare-file.js";
import { engineFor, KEYWORD_ONLY, makeWorkspace, pathsHolding, trackWorkspaces } from "./helpers.js";

const tracked = trackWorkspaces();
const savedWorkers = process.env.OPENCODE_RAG_CHUNK_WORKERS;
afterEach(() => {
  if (savedWorkers === undefined) delete process.env.OPENCODE_RAG_CHUNK_WORKERS;
  else process.env.OPENCODE_RAG_CHUNK_WORKERS = savedWorkers;
});

/** A TypeScript and a Python file per module, each with its own named functions. */
function bigWorkspaceFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  let bytes = 0;
  for (let m = 0; bytes < POOL_MIN_BYTES * 1.2; m++) {
    const ts = Array.from({ length: 40 }, (_, f) =>
      `/** Settles ledger ${m}.${f} against its journal. */\nexport function settleLedger${m}x${f}(entries: number[]): number {\n  let total = 0;\n  for (const e of entries) total += e * ${f + 1};\n  return total - ${m};\n}\n`,
    ).join("\n");
    const py = Array.from({ length: 40 }, (_, f) => `def render_chart_${m}_${f}(points):\n    """Draws chart ${m}.${f} from its points."""\n    return [p * ${f + 2} for p in points]\n`).join("\n\n");
    files[`src/m${m}/ledger.ts`] = ts;
    files[`lib/m${m}/chart.py`] = py;
    bytes += ts.length + py.length;
  }
  return files;
}

/** Every file's chunk ids, from the manifest the pass committed. */
async function chunkIdsByFile(root: string): Promise<Record<string, string[]>> {
  const { readManifest } = await import("../../core/indexing/manifest.js");
  const read = readManifest(join(root, ".opencode", "rag_db"));
  if (read.status !== "ok") throw new Error(`no manifest: ${read.status}`);
  const out: Record<string, string[]> = {};
  for (const [path, entry] of Object.entries(read.manifest.files)) out[path] = [...entry.chunkIds].sort();
  return out;
}

describe("chunking workers", () => {
  it("index a big workspace exactly as an in-process pass does", async () => {
    const files = bigWorkspaceFiles();
    const pooled = makeWorkspace(files);
    const inProcess = makeWorkspace(files);
    tracked.roots.push(pooled, inProcess);

    process.env.OPENCODE_RAG_CHUNK_WORKERS = "1";
    const a = await engineFor(pooled, KEYWORD_ONLY);
    tracked.engines.push(a);
    const sa = await a.index();
    process.env.OPENCODE_RAG_CHUNK_WORKERS = "0";
    const b = await engineFor(inProcess, KEYWORD_ONLY);
    tracked.engines.push(b);
    const sb = await b.index();

    expect(sa.errors).toEqual([]);
    expect(sa.filesIndexed).toBe(Object.keys(files).length);
    expect(sa.chunksAdded).toBe(sb.chunksAdded);
    expect(await chunkIdsByFile(pooled)).toEqual(await chunkIdsByFile(inProcess));
    const m = Math.floor(Object.keys(files).length / 4);
    expect(await pathsHolding(a, `settleLedger${m}x7`)).toEqual([`src/m${m}/ledger.ts`]);
    expect(await pathsHolding(a, `render_chart_${m}_3`)).toEqual([`lib/m${m}/chart.py`]);
  });
});

describe("taking jobs back from a worker", () => {
  it("settles every job once: taken back (the last first) by the pass, or chunked by the worker", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`src/f${i}.ts`] = `export function task${i}(n: number): number {\n  return n * ${i};\n}\n`;
    const root = makeWorkspace(files);
    tracked.roots.push(root);
    const pool = ChunkPool.create(DEFAULT_CONFIG, root, 1)!;
    expect(pool).not.toBeNull();
    try {
      const jobs: FileToPrepare[] = Object.keys(files).map((path) => {
        const st = statSync(join(root, path));
        return { path, absPath: join(root, path), size: st.size, mtimeMs: st.mtimeMs };
      });
      const results = jobs.map((f) => pool.prepare(f));
      // The worker is still starting: it holds jobs it has not begun, taken back last first.
      const takenBack: string[] = [];
      while (takenBack.length < 25) {
        const job = pool.takeUnstarted();
        if (!job) break;
        takenBack.push(job.file.path);
        job.resolve({ path: job.file.path, kind: "error", error: "done by the pass" });
      }
      expect(takenBack.length).toBe(25);
      expect(takenBack[0]).toBe("src/f39.ts");
      const settled: PreparedFile[] = await Promise.all(results);
      for (const [i, r] of settled.entries()) {
        expect(r.path).toBe(jobs[i].path);
        if (takenBack.includes(r.path)) expect(r).toMatchObject({ kind: "error", error: "done by the pass" });
        else expect(r.kind).toBe("chunks");
      }
      // Nothing is left to take back once the worker has answered the rest.
      expect(pool.takeUnstarted()).toBeUndefined();
    } finally {
      await pool.close();
    }
  });
});
