// A process that only searches (a one-off query, a host that did not index) reads the keyword
// index of the last commit off its main thread, while the store opens: searches that arrive
// together share that load, and a later commit by another process is picked up.
import { describe, expect, it } from "vitest";
import { KEYWORD_ONLY, pathsHolding, trackWorkspaces, tsFunction, writeFiles } from "./helpers.js";

const tracked = trackWorkspaces();

describe("searching an index another process wrote", () => {
  it("answers searches that arrive together, and sees the other process's next commit", async () => {
    const root = tracked.workspace({ "src/a.ts": tsFunction("alphaLoadedElsewhere", "a"), "src/b.ts": tsFunction("betaLoadedElsewhere", "b") });
    const writer = await tracked.engine(root, KEYWORD_ONLY);
    await writer.index();

    const reader = await tracked.engine(root, KEYWORD_ONLY);
    const [a, b, again] = await Promise.all([pathsHolding(reader, "alphaLoadedElsewhere"), pathsHolding(reader, "betaLoadedElsewhere"), pathsHolding(reader, "alphaLoadedElsewhere")]);
    expect(a).toEqual(["src/a.ts"]);
    expect(b).toEqual(["src/b.ts"]);
    expect(again).toEqual(["src/a.ts"]);

    writeFiles(root, { "src/c.ts": tsFunction("gammaLoadedElsewhere", "c") });
    await writer.index();
    expect(await pathsHolding(reader, "gammaLoadedElsewhere")).toEqual(["src/c.ts"]);
    expect(await pathsHolding(reader, "alphaLoadedElsewhere")).toEqual(["src/a.ts"]);
  });
});
