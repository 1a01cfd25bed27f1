// The V8 settings the CLI applies to its own process must take effect at run time and hold
// through an index pass: a pass's memory bound depends on them, V8 ignores some flags once the
// heap is set up, and it resets others whenever a worker thread starts.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POOL_MIN_BYTES } from "../../core/indexing/chunk-pool.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const LIBRARY = pathToFileURL(join(repoRoot, "dist", "library.js")).href;
const work = mkdtempSync(join(tmpdir(), "rag-own-process-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tree big enough for the pass to start its chunking workers. */
function treeWithWorkers(): string {
  const root = join(work, "tree");
  mkdirSync(root, { recursive: true });
  const body = Array.from({ length: 400 }, (_, i) => `export function handler${i}(request, options) {\n  return request.items.map((item) => item.value * ${i} + options.offset);\n}\n`).join("\n");
  for (let f = 0; f * body.length < POOL_MIN_BYTES * 1.5; f++) writeFileSync(join(root, `module${f}.js`), body);
  return root;
}

/**
 * Runs `measure` (a script body that writes one line) in a fresh Node process that imported
 * the library, took the CLI's settings if `tune`, and ran an index pass of `root` first if
 * given; returns the last line it wrote. A script file, as the CLI is (not `-e`), run with
 * `nodeFlags`.
 */
function measureInProcess(name: string, tune: boolean, root: string | undefined, measure: string, nodeFlags: string[] = []): string {
  const pass = root
    ? `const engine = await openEngine({ root: ${JSON.stringify(root)}, configPath: ${JSON.stringify(join(work, "config.json"))} });
       await engine.index(); await engine.close();`
    : "";
  const script = `
    import v8 from "node:v8";
    const { tuneOwnProcess, openEngine } = await import(${JSON.stringify(LIBRARY)});
    ${tune ? "tuneOwnProcess();" : ""}
    ${pass}
    ${measure}`;
  const file = join(work, `${name}-${tune}-${root ? "pass" : "bare"}.mjs`);
  writeFileSync(file, script);
  const out = execFileSync(process.execPath, [...nodeFlags, file], { encoding: "utf8", env: { ...process.env, LANCEDB_LOG: "error" } });
  return out.trim().split("\n").pop() ?? "";
}

/** Size of V8's young generation after a burst of short-lived allocations (after an index pass of `root`, if given), in MB. */
function youngGenerationAfterChurn(tune: boolean, root?: string): number {
  const out = measureInProcess(
    "churn",
    tune,
    root,
    `const kept = [];
    for (let i = 0; i < 2e6; i++) { const o = { i, s: "row " + i, parts: [i, i + 1] }; if (i % 200 === 0) kept.push(o); }
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    process.stdout.write(String(young.space_size / 1048576));`,
  );
  return Number(out);
}

/**
 * How many full collections V8 made while a tuned process kept every 8th object of a burst of
 * allocations (~140 MB kept), after an index pass of `root` if given, and how big its heap grew
 * (MB). After each full collection the old generation may grow by a factor of what survived it
 * before the next one: the smaller that factor, the more collections the same growth takes. The
 * count is what the cap decides; the peak also depends on when the collector's marking ends, so
 * it moved with the machine's load (one CI run: 197 MB capped against 205 uncapped, where an
 * idle machine measures 185-192 against 204-217).
 */
function collectionsUnderRetention(root?: string): { full: number; peakMb: number } {
  const out = measureInProcess(
    "retain",
    true,
    root,
    `const { PerformanceObserver, constants } = await import("node:perf_hooks");
    let full = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++;
    });
    observer.observe({ entryTypes: ["gc"] });
    const kept = [];
    let peak = 0;
    for (let i = 0; i < 6e6; i++) {
      const o = { i, s: "row " + i, parts: [i, i + 1] };
      if (i % 8 === 0) kept.push(o);
      if (i % 50000 === 0) peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
    }
    // The observer hears of the last collections on a later turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.stdout.write(JSON.stringify({ full, peakMb: peak / 1048576 }));`,
    // One collector thread, so that when marking ends depends less on the other cores' load.
    ["--single-threaded-gc"],
  );
  return JSON.parse(out) as { full: number; peakMb: number };
}

describe("tuneOwnProcess", () => {
  beforeAll(() => {
    ensureBuilt();
    const config = { vectorStore: { path: join(work, "index") }, embedding: { provider: "none" }, autoIndex: { enabled: false }, logging: { logFilePath: "" } };
    writeFileSync(join(work, "config.json"), JSON.stringify(config));
  });

  it("keeps the young generation at its starting size through an allocation-heavy stretch", () => {
    const tuned = youngGenerationAfterChurn(true);
    const untuned = youngGenerationAfterChurn(false);
    expect(untuned).toBeGreaterThan(16);
    expect(tuned).toBeLessThanOrEqual(4);
  });

  it("still does after a pass that ran chunking workers (V8 resets the setting for each new isolate)", () => {
    // The worker takes the setting back as its first step; until then the pass's thread may
    // have grown its young generation once (4 -> 8 MB). Without that step: 32 MB.
    expect(youngGenerationAfterChurn(true, treeWithWorkers())).toBeLessThanOrEqual(8);
  });

  it("caps the old generation's growth from the first index pass on, and not in a process that only searches", () => {
    const root = join(work, "small");
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "a.ts"), "export const answer = 42;\n");
    const searching = collectionsUnderRetention();
    const indexing = collectionsUnderRetention(root);
    // 8-9 full collections with the cap, 3 with V8's own growth, idle or beside three busy
    // loops; the peaks (185-192 MB against 204-217) for the message.
    expect(indexing.full, `full collections (heap peak ${indexing.peakMb.toFixed(0)} MB) against ${searching.full} (${searching.peakMb.toFixed(0)} MB) in a process that only searched`).toBeGreaterThanOrEqual(searching.full + 3);
  });
});

