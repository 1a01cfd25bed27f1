// The keyword index snapshot is read by a pass only when the pass changes something: a no-op
// pass of a big workspace does not parse it. A snapshot that is gone, or whose head is not of
// this version's format (an upgrade), is noticed by any pass; one whose body no longer parses
// is noticed by the first pass that needs it, which fails with the reason and leaves the next
// pass to rebuild.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { engineFor, KEYWORD_ONLY, makeWorkspace, pathsHolding, trackWorkspaces, tsFunction, writeFiles } from "./helpers.js";

const tracked = trackWorkspaces();

async function indexed() {
  const root = makeWorkspace({
    "src/alpha.ts": tsFunction("computeAlphaChecksum", "alpha checksum"),
    "src/beta.ts": tsFunction("renderBetaWidget", "beta widget"),
  });
  tracked.roots.push(root);
  const first = await engineFor(root, KEYWORD_ONLY);
  await first.index();
  await first.close();
  const stateDir = join(root, ".opencode", "rag_db");
  const manifest = JSON.parse(readFileSync(join(stateDir, "manifest.json"), "utf8")) as { keywordFile: string };
  return { root, snapshot: join(stateDir, manifest.keywordFile) };
}

describe("keyword index snapshot", () => {
  it("is not read by a no-op pass; a damaged one fails the next changing pass, and the pass after rebuilds", async () => {
    const { root, snapshot } = await indexed();
    const head = readFileSync(snapshot).subarray(0, 5);
    writeFileSync(snapshot, Buffer.concat([head, Buffer.from("damaged body")]));
    const engine = await engineFor(root, KEYWORD_ONLY);
    tracked.engines.push(engine);

    const noop = await engine.index();
    expect(noop.rebuildReason).toBeNull();
    expect(noop.filesUnchanged).toBe(2);

    writeFiles(root, { "src/alpha.ts": tsFunction("computeAlphaDigest", "alpha digest") });
    await expect(engine.index()).rejects.toThrow(/keyword index snapshot is unreadable; the next index pass rebuilds/);
    const rebuilt = await engine.index();
    expect(rebuilt.rebuildReason).toMatch(/keyword index snapshot is missing, unreadable or of an older format/);
    expect(await pathsHolding(engine, "computeAlphaDigest")).toEqual(["src/alpha.ts"]);
    expect(await pathsHolding(engine, "renderBetaWidget")).toEqual(["src/beta.ts"]);
  });

  it("is rebuilt by a no-op pass when it is gone", async () => {
    const { root, snapshot } = await indexed();
    rmSync(snapshot);
    const engine = await engineFor(root, KEYWORD_ONLY);
    tracked.engines.push(engine);
    const s = await engine.index();
    expect(s.rebuildReason).toMatch(/keyword index snapshot is missing, unreadable or of an older format/);
    expect(await pathsHolding(engine, "renderBetaWidget")).toEqual(["src/beta.ts"]);
  });

  it("is rebuilt by a no-op pass when an older version wrote it, and keyword search finds its terms again", async () => {
    const { root, snapshot } = await indexed();
    const bytes = readFileSync(snapshot);
    bytes[4] = 5; // the format version byte, after the 4-byte magic: one this version no longer reads
    writeFileSync(snapshot, bytes);
    const engine = await engineFor(root, KEYWORD_ONLY);
    tracked.engines.push(engine);
    expect(await pathsHolding(engine, "renderBetaWidget")).toEqual([]);
    const s = await engine.index();
    expect(s.rebuildReason).toMatch(/keyword index snapshot is missing, unreadable or of an older format/);
    expect(await pathsHolding(engine, "renderBetaWidget")).toEqual(["src/beta.ts"]);
  });

  it("is read by a changing pass in a fresh process, keeping what the other files put in it", async () => {
    const { root } = await indexed();
    const engine = await engineFor(root, KEYWORD_ONLY);
    tracked.engines.push(engine);
    writeFiles(root, { "src/gamma.ts": tsFunction("parseGammaRecord", "gamma record") });
    const s = await engine.index();
    expect(s.rebuildReason).toBeNull();
    expect(s.filesIndexed).toBe(1);
    expect(await pathsHolding(engine, "parseGammaRecord")).toEqual(["src/gamma.ts"]);
    expect(await pathsHolding(engine, "renderBetaWidget")).toEqual(["src/beta.ts"]);
  });
});
