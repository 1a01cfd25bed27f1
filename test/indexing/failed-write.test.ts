// A store write that fails mid-pass (a full disk) while later batches are being prepared: the
// pass fails with that error, the index stays as the last good pass left it, and the next
// pass succeeds. Writes run while the next batch is embedded, so the failure surfaces later
// than the write itself; nothing of the failed pass may stay behind.
import { describe, expect, it } from "vitest";
import { engineFor, failNthStoreAdd, KEYWORD_ONLY, makeWorkspace, trackWorkspaces, writeFiles } from "./helpers.js";

const tracked = trackWorkspaces();

/** 250 files: three batches of at most 100. */
function files(word: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 250; i++) out[`src/m${i}.ts`] = `export function ${word}Handler${i}(input: number): number {\n  // ${word} step ${i}\n  return input + ${i};\n}\n`;
  return out;
}

describe("a failed store write during a pass", () => {
  it("fails the pass with the write's error, keeps the last good index, and the next pass succeeds", async () => {
    const root = makeWorkspace(files("alpha"));
    tracked.roots.push(root);
    const engine = await engineFor(root, KEYWORD_ONLY);
    tracked.engines.push(engine);
    await engine.index();
    const before = (await engine.status()).chunks;
    expect(before).toBe(250);

    writeFiles(root, files("beta"));
    const failing = failNthStoreAdd(engine, 2);
    // Said in plain words; the write's own error stays with it for --debug and the log.
    const err = await engine.index().then(() => null, (e: Error) => e);
    expect(err?.message).toMatch(/^the disk holding \S+ is full: free some space and run the pass again; the previous index \(250 files\) is still in use$/);
    expect((err?.cause as Error).message).toMatch(/no space left on device/);
    expect(failing.adds()).toBeGreaterThanOrEqual(2);

    // the last good pass's index, whole: its rows and its words, none of the failed pass's
    expect((await engine.status()).chunks).toBe(before);
    const alpha = await engine.search("alphaHandler17", { topK: 3 });
    expect(alpha[0]?.chunk.filePath).toBe("src/m17.ts");
    expect(alpha[0]?.chunk.content).toContain("alpha");
    expect((await engine.search("betaHandler17", { topK: 3 })).some((r) => r.chunk.content.includes("beta"))).toBe(false);

    failing.restore();
    const summary = await engine.index();
    expect(summary.filesIndexed).toBe(250);
    expect((await engine.status()).chunks).toBe(250);
    const beta = await engine.search("betaHandler17", { topK: 3 });
    expect(beta[0]?.chunk.filePath).toBe("src/m17.ts");
    expect(beta[0]?.chunk.content).toContain("beta");
  });
});
