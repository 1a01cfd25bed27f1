// Files a pass leaves out are named, each with why: status() (and `status --json`) lists them
// from the last pass, a watch pass updates the entries for the paths it looked at, and the list
// is capped with a count of the rest.
import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SKIPPED_LIST_MAX } from "../../core/indexing/skipped-files.js";
import { engineFor, KEYWORD_ONLY, makeWorkspace, trackWorkspaces, tsFunction } from "./helpers.js";

const { roots, engines } = trackWorkspaces();

const keywordOnly = KEYWORD_ONLY;

describe("skipped files", () => {
  it("are listed with their reasons after a pass, and updated by a watch pass", async () => {
    const root = makeWorkspace({
      "src/a.ts": tsFunction("alphaListed", "a"),
      "assets/blob.qqq": new Uint8Array([0, 1, 2, 0, 255, 0, 0, 7, 0, 0, 0, 9]),
      "big.txt": "x".repeat(5000),
      ".env": "API_KEY=abc123\n",
    });
    roots.push(root);
    const engine = await engineFor(root, { ...keywordOnly, indexing: { maxFileSizeBytes: 4000 } });
    engines.push(engine);
    await engine.index();
    const s = await engine.status();
    const reasons = Object.fromEntries((s.skipped?.files ?? []).map((f) => [f.path, f.reason]));
    expect(reasons["assets/blob.qqq"]).toMatch(/binary/);
    expect(reasons["big.txt"]).toMatch(/larger than indexing.maxFileSizeBytes/);
    expect(reasons[".env"]).toMatch(/secret/);
    expect(reasons["src/a.ts"]).toBeUndefined();
    expect(s.skipped!.total).toBe(s.skipped!.files.length);
    expect(s.skipped!.omitted).toBe(0);

    // A second, no-op pass still lists them (the binary file is not even read again).
    await engine.index();
    expect((await engine.status()).skipped?.files.map((f) => f.path)).toEqual(Object.keys(reasons).sort());

    // A watch pass over one path updates that entry only.
    rmSync(`${root}/assets/blob.qqq`);
    await engine.index({ onlyPaths: ["assets/blob.qqq"] });
    const after = (await engine.status()).skipped!;
    expect(after.files.map((f) => f.path)).toEqual([".env", "big.txt"]);
  });

  it(`keeps at most ${SKIPPED_LIST_MAX} entries and counts the rest`, async () => {
    const files: Record<string, string> = { "keep.ts": tsFunction("keptFunction", "k") };
    for (let i = 0; i < SKIPPED_LIST_MAX + 5; i++) files[`gen/f${String(i).padStart(4, "0")}.txt`] = "y".repeat(2000);
    const root = makeWorkspace(files);
    roots.push(root);
    const engine = await engineFor(root, { ...keywordOnly, indexing: { maxFileSizeBytes: 1000 } });
    engines.push(engine);
    await engine.index();
    const s = (await engine.status({ countPending: false })).skipped!;
    expect(s.total).toBe(SKIPPED_LIST_MAX + 5);
    expect(s.files).toHaveLength(SKIPPED_LIST_MAX);
    expect(s.omitted).toBe(5);
  });
});
