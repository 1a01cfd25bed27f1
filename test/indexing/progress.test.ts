// Progress of a pass moves file by file, also when the whole change fits in one batch (a small
// repository): hosts show it as "12/40 files", and "0/40" for the whole pass says nothing.
import { afterAll, describe, expect, it } from "vitest";
import type { Engine, IndexProgress } from "../../core/engine-types.js";
import { engineFor, makeWorkspace, removeWorkspace, tsFunction } from "./helpers.js";

const FILES = 12;
const roots: string[] = [];
const engines: Engine[] = [];
afterAll(async () => {
  for (const e of engines) await e.close();
  for (const r of roots) removeWorkspace(r);
});

describe("index progress", () => {
  it("counts files as they complete, in a pass of one batch", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) files[`src/f${i}.ts`] = tsFunction(`handler${i}`, `step ${i} of the pipeline`);
    const root = makeWorkspace(files, "rag-progress-");
    roots.push(root);
    const engine = await engineFor(root, { logging: { logFilePath: "" } });
    engines.push(engine);
    const seen: IndexProgress[] = [];
    const summary = await engine.index({ onProgress: (p) => seen.push(p) });
    expect(summary.filesIndexed).toBe(FILES);
    const counted = seen.filter((p) => p.filesTotal === FILES);
    expect(counted.some((p) => p.filesDone > 0 && p.filesDone < FILES)).toBe(true);
    for (let i = 1; i < counted.length; i++) expect(counted[i].filesDone).toBeGreaterThanOrEqual(counted[i - 1].filesDone);
    expect(seen.at(-1)).toMatchObject({ phase: "done", filesDone: FILES, filesTotal: FILES });
  });
});
