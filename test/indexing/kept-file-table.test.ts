// The manifest's file table across passes. A pass that edits a few entries writes them as a
// delta beside the table instead of the whole table again, and an engine keeps the table its
// last commit wrote, which its next pass takes instead of decoding the file again (both were
// most of a one-file pass at 100k files). What neither may ever do: hand a pass, or another
// process, a table that is not the committed one, whether another process committed since,
// or a failed pass had already edited it.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countFiles, readManifest, type WrittenFileTable } from "../../core/indexing/manifest.js";
import type { Engine } from "../../core/engine-types.js";
import { engineFor, failNthStoreAdd, KEYWORD_ONLY, pathsHolding, trackWorkspaces, tsFunction, writeFiles } from "./helpers.js";

const tracked = trackWorkspaces();

type PassEnvHolder = { passEnv: { writtenFiles?: WrittenFileTable | null } };
const passEnv = (engine: Engine) => (engine as unknown as PassEnvHolder).passEnv;

/** The committed file table as a fresh reader decodes it from disk, entries as plain values. */
function onDisk(engine: Engine): Record<string, unknown> {
  const read = readManifest(engine.stateDir);
  if (read.status !== "ok") throw new Error(`manifest ${read.status}`);
  return JSON.parse(JSON.stringify(read.manifest.files)) as Record<string, unknown>;
}

/** The header's counts beside the same counted from the table on disk. */
function headerCounts(engine: Engine): { header: unknown; table: unknown } {
  const header = JSON.parse(readFileSync(join(engine.stateDir, "manifest.json"), "utf8")) as { chunkCount: number; indexedFiles: number; listedFiles: number };
  const read = readManifest(engine.stateDir);
  if (read.status !== "ok") throw new Error(`manifest ${read.status}`);
  const counted = countFiles(read.manifest.files);
  return { header: [header.chunkCount, header.indexedFiles, header.listedFiles], table: [counted.chunks, counted.indexedFiles, counted.listedFiles] };
}

/** The table the engine keeps for its next pass, entries as plain values. */
function kept(engine: Engine): Record<string, unknown> {
  const table = passEnv(engine).writtenFiles;
  if (!table) throw new Error("the engine keeps no file table");
  return JSON.parse(JSON.stringify(table.files)) as Record<string, unknown>;
}

function sources(n: number, word: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[`src/m${i}.ts`] = tsFunction(`${word}Kept${i}`, `${word} ${i}`);
  return out;
}

describe("the manifest's file table across an engine's passes", () => {
  it("is, after every kind of pass, exactly the table on disk", async () => {
    const root = tracked.workspace({ ...sources(12, "alpha"), "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]) });
    const engine = await tracked.engine(root, KEYWORD_ONLY);
    await engine.index();
    expect(kept(engine)).toEqual(onDisk(engine));

    const steps: Array<() => void> = [
      () => writeFiles(root, { "src/m3.ts": tsFunction("betaKept3", "beta 3") }), // an edit
      () => writeFiles(root, { "src/extra/new.ts": tsFunction("gammaKept", "gamma") }), // a new file
      () => rmSync(join(root, "src/m5.ts")), // a deletion
      () => undefined, // nothing changed
      () => writeFiles(root, { "src/m7.ts": tsFunction("alphaKept7", "alpha 7") }), // rewritten with the same text
    ];
    for (const step of steps) {
      step();
      await engine.index();
      expect(kept(engine)).toEqual(onDisk(engine));
      // Counts the passes kept current as they edited entries, not counted again.
      const { header, table } = headerCounts(engine);
      expect(header).toEqual(table);
    }
    expect(Object.keys(onDisk(engine))).toContain("src/extra/new.ts");
    expect(Object.keys(onDisk(engine))).not.toContain("src/m5.ts");
    expect(await pathsHolding(engine, "betaKept3")).toEqual(["src/m3.ts"]);
    expect(await pathsHolding(engine, "alphaKept5")).toEqual([]);
  });

  it("is not taken once another engine (another process) committed: its changes are read from disk", async () => {
    const root = tracked.workspace(sources(6, "alpha"));
    const engine = await tracked.engine(root, KEYWORD_ONLY);
    await engine.index();
    const other = await engineFor(root, KEYWORD_ONLY);
    try {
      writeFiles(root, { "src/m2.ts": tsFunction("betaKept2", "beta 2"), "src/late.ts": tsFunction("lateKept", "late") });
      rmSync(join(root, "src/m4.ts"));
      expect((await other.index()).filesIndexed).toBe(2);
    } finally {
      await other.close();
    }
    // With its own table this engine would index both files again and keep the deleted one.
    const summary = await engine.index();
    expect(summary).toMatchObject({ filesIndexed: 0, filesDeleted: 0 });
    expect(await pathsHolding(engine, "lateKept")).toEqual(["src/late.ts"]);
    expect(await pathsHolding(engine, "alphaKept4")).toEqual([]);
    expect((await engine.status()).chunks).toBe(6);
    expect(kept(engine)).toEqual(onDisk(engine));
  });

  it("is not kept by a pass that failed after editing it: the next pass starts from the committed table", async () => {
    const root = tracked.workspace(sources(250, "alpha"));
    const engine = await tracked.engine(root, KEYWORD_ONLY);
    await engine.index();
    const before = onDisk(engine);

    // Deletions leave the pass's manifest before its writes; the second write then fails.
    writeFiles(root, sources(250, "beta"));
    for (let i = 0; i < 10; i++) rmSync(join(root, `src/m${i}.ts`));
    const failing = failNthStoreAdd(engine, 2);
    await expect(engine.index()).rejects.toThrow(/disk .* is full/);
    expect(onDisk(engine)).toEqual(before);
    expect(passEnv(engine).writtenFiles ?? null).toBeNull();

    failing.restore();
    const summary = await engine.index();
    expect(summary).toMatchObject({ filesIndexed: 240, filesDeleted: 10 });
    expect((await engine.status()).chunks).toBe(240);
    expect(await pathsHolding(engine, "alphaKept3")).toEqual([]);
    expect(await pathsHolding(engine, "betaKept13")).toEqual(["src/m13.ts"]);
    expect(kept(engine)).toEqual(onDisk(engine));
  });

  it("takes a small pass's edits as a delta beside the table, which another process reads back, until the deltas are folded into a new table", async () => {
    const root = tracked.workspace(sources(300, "alpha"));
    const engine = await tracked.engine(root, KEYWORD_ONLY);
    await engine.index();
    const header = () => JSON.parse(readFileSync(join(engine.stateDir, "manifest.json"), "utf8")) as { filesFile: string; filesDeltas?: Array<{ file: string }> };
    const tableFiles = () => readdirSync(engine.stateDir).filter((n) => n.startsWith("manifest-files-")).sort();
    const base = header().filesFile;

    writeFiles(root, { "src/m3.ts": tsFunction("betaKept3", "beta 3") });
    await engine.index();
    rmSync(join(root, "src/m5.ts"));
    await engine.index();
    expect(header().filesFile).toBe(base);
    expect(header().filesDeltas).toHaveLength(2);
    expect(tableFiles()).toEqual([base, ...header().filesDeltas!.map((d) => d.file)].sort());

    const other = await tracked.engine(root, KEYWORD_ONLY);
    expect(await other.index()).toMatchObject({ filesIndexed: 0, filesDeleted: 0 });
    expect((await other.status()).chunks).toBe(299);
    expect(await pathsHolding(other, "betaKept3")).toEqual(["src/m3.ts"]);
    expect(onDisk(other)).toEqual(kept(engine));

    for (let i = 0; i < 20; i++) {
      writeFiles(root, { "src/m9.ts": tsFunction(`gammaKept${i}`, `gamma ${i}`) });
      await engine.index();
      expect(header().filesDeltas?.length ?? 0).toBeLessThanOrEqual(16);
    }
    expect(header().filesFile).not.toBe(base);
    expect(tableFiles()).toEqual([header().filesFile, ...(header().filesDeltas ?? []).map((d) => d.file)].sort());
    expect(kept(engine)).toEqual(onDisk(engine));
    expect(await pathsHolding(engine, "gammaKept19")).toEqual(["src/m9.ts"]);
  });
});
