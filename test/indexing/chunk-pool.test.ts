// A pass with more than POOL_MIN_BYTES to chunk hands files to worker threads, and a foreground
// pass's own thread chunks whatever the workers have not taken yet while it waits. Whoever
// chunks a file, the index must be the one an in-process pass builds.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { POOL_MIN_BYTES } from "../../core/indexing/chunk-pool.js";
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
