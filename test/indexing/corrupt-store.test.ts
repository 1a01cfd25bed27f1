// A vector store damaged on disk (a crash of the disk, a user deleting files) is detected on
// the next pass, moved aside and rebuilt; the workspace ends up fully searchable again.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { engineFor, KEYWORD_ONLY, makeWorkspace, pathsHolding, removeWorkspace, tsFunction } from "./helpers.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) removeWorkspace(r);
});

const keywordOnly = KEYWORD_ONLY;

describe("corrupted store", () => {
  it("is moved aside and rebuilt by the next pass", async () => {
    const root = makeWorkspace({ "src/a.ts": tsFunction("alphaSurvivesCorruption", "a"), "src/b.ts": tsFunction("betaSurvivesCorruption", "b") });
    roots.push(root);
    const first = await engineFor(root, keywordOnly);
    await first.index();
    const table = join(first.stateDir, "chunks.lance");
    await first.close();
    // The table's version history is gone: LanceDB cannot open it any more.
    rmSync(join(table, "_versions"), { recursive: true, force: true });

    const engine = await engineFor(root, keywordOnly);
    const s = await engine.index();
    expect(s.rebuildReason).not.toBeNull();
    expect(s.filesIndexed).toBe(2);
    expect(readdirSync(engine.stateDir).some((n) => n.startsWith("chunks.lance.corrupt-"))).toBe(true);
    expect(existsSync(join(table, "_versions"))).toBe(true);
    expect(await pathsHolding(engine, "betaSurvivesCorruption")).toEqual(["src/b.ts"]);
    await engine.close();
  });
});
