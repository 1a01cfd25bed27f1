// A background indexer's share of the cores and its low priority, on real threads: nice values
// are read back from /proc (Linux keeps one per thread), so these run on Linux only.
import { readdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { getPriority } from "node:os";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { ChunkPool } from "../../core/indexing/chunk-pool.js";
import { BACKGROUND_NICE, cpuBudget, lowerThreadsStartedBy } from "../../core/indexing/cpu-share.js";
import { ensureBuilt } from "./dist-build.js";

/** Nice value of every thread of this process, by thread id. */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // fields after the command name (which may hold spaces): state is field 3, nice field 19
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(tid), Number(fields[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

const lowered = () => [...threadNices().values()].filter((n) => n === BACKGROUND_NICE).length;

describe("cpuBudget", () => {
  it("gives a background pass its share of the cores, at least one", () => {
    expect(cpuBudget(0.5, 2, 2)).toEqual({ cores: 1, embeddingThreads: 1, chunkWorkers: 0 });
    expect(cpuBudget(0.1, 2, 2)).toEqual({ cores: 1, embeddingThreads: 1, chunkWorkers: 0 });
    expect(cpuBudget(0.5, 2, 8)).toEqual({ cores: 4, embeddingThreads: 2, chunkWorkers: 3 });
    expect(cpuBudget(1, 8, 16)).toEqual({ cores: 16, embeddingThreads: 8, chunkWorkers: 4 });
  });
});

describe.skipIf(process.platform !== "linux")("low priority of background threads", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), "ocr-cpu-share-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("lowers the threads a start-up creates, and only those", async () => {
    const mainBefore = getPriority(0);
    const before = lowered();
    let worker: Worker | null = null;
    const { lowered: count } = await lowerThreadsStartedBy(async () => {
      worker = new Worker("setInterval(() => {}, 1000)", { eval: true });
      await new Promise((r) => worker!.once("online", r));
    });
    try {
      expect(count).toBeGreaterThanOrEqual(1);
      expect(lowered()).toBeGreaterThan(before);
      // the calling thread (a host's main thread, in the plugin) keeps its priority
      expect(getPriority(0)).toBe(mainBefore);
    } finally {
      await worker!.terminate();
    }
  });

  it("runs a background pass's chunking workers at the lowest priority, a foreground pass's at normal", async () => {
    const file = join(dir, "a.ts");
    writeFileSync(file, "export function add(a: number, b: number) { return a + b; }\n");
    const job = { path: "a.ts", absPath: file, size: 60, mtimeMs: 1 };
    const before = lowered();
    const normal = ChunkPool.create(DEFAULT_CONFIG, dir, 1)!;
    try {
      expect((await normal.prepare(job)).kind).toBe("chunks");
      expect(lowered()).toBe(before);
    } finally {
      await normal.close();
    }
    const background = ChunkPool.create(DEFAULT_CONFIG, dir, 1, { lowPriority: true })!;
    try {
      expect((await background.prepare(job)).kind).toBe("chunks");
      expect(lowered()).toBe(before + 1);
    } finally {
      await background.close();
    }
  });
});
