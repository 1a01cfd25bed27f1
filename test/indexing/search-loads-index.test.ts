// A process that only searches (a one-off query, a host that did not index) reads the keyword
// index of the last commit off its main thread, while the store opens: searches that arrive
// together share that load, and a later commit by another process is picked up, also by a
// process whose own passes found nothing to do since.
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

  it("sees another process's commit after a pass of its own that changed nothing", async () => {
    // The plugin's engine indexed; `opencode-rag index` in a terminal commits; the plugin's next
    // pass (its watcher's, its interval's) finds nothing to do, and its searches must still see
    // what the terminal's pass indexed, not the keyword index of the plugin's own last commit.
    const root = tracked.workspace({ "src/a.ts": tsFunction("alphaAfterNoop", "a") });
    const plugin = await tracked.engine(root, KEYWORD_ONLY);
    await plugin.index();
    expect(await pathsHolding(plugin, "alphaAfterNoop")).toEqual(["src/a.ts"]);

    const terminal = await tracked.engine(root, KEYWORD_ONLY);
    writeFiles(root, { "src/b.ts": tsFunction("betaAfterNoop", "b"), "src/a.ts": tsFunction("gammaAfterNoop", "a") });
    expect((await terminal.index()).filesIndexed).toBe(2);

    expect((await plugin.index()).filesIndexed).toBe(0);
    expect(await pathsHolding(plugin, "betaAfterNoop")).toEqual(["src/b.ts"]);
    expect(await pathsHolding(plugin, "gammaAfterNoop")).toEqual(["src/a.ts"]);
    expect(await pathsHolding(plugin, "alphaAfterNoop")).toEqual([]);
  });
});
