// A pass killed after writing rows but before committing its manifest leaves the store ahead of
// the manifest: the first search of an engine opened on it rolls those rows back (readers never
// see half a pass). An engine opened on a store at its checkpoint leaves it alone and does not
// take the index lock, which a pass starting meanwhile would have to wait for.
import { watch } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOCK_FILE } from "../../core/indexing/lock.js";
import { openVectorStore } from "../../core/store/index.js";
import type { VectorStore } from "../../core/types.js";
import { trackWorkspaces, tsFunction } from "./helpers.js";

const { workspace, engine } = trackWorkspaces();
const KEYWORD = { embedding: { provider: "none" }, autoIndex: { enabled: false }, logging: { logFilePath: "" } };

async function withStore<T>(stateDir: string, use: (store: VectorStore) => Promise<T>): Promise<T> {
  const store = await openVectorStore({ uri: stateDir, tableName: "chunks", dimension: null });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** An indexed keyword-only workspace; returns its root and state folder. */
async function indexed(): Promise<{ root: string; stateDir: string }> {
  const root = workspace({ "src/tokens.ts": tsFunction("verifySessionToken", "checks a token") });
  const writer = await engine(root, KEYWORD);
  await writer.index();
  return { root, stateDir: writer.stateDir };
}

describe("an engine opened on an index", () => {
  it("rolls back rows written after the manifest's checkpoint at its first search", async () => {
    const { root, stateDir } = await indexed();
    // What a pass killed before its commit leaves: a row the manifest does not name.
    const [committed, ahead] = await withStore(stateDir, async (store) => {
      const [row] = await store.getByIds((await store.listAll()).map((r) => r.id));
      const before = await store.checkpoint();
      await store.add([{ ...row, id: `${row.id}-half`, filePath: "src/half.ts", content: "export const halfWrittenPass = 1;\n", vector: null }]);
      return [before, await store.checkpoint()];
    });
    expect(ahead).toBeGreaterThan(committed);

    const reader = await engine(root, KEYWORD);
    expect((await reader.search("halfWrittenPass", { topK: 5 })).map((r) => r.chunk.filePath)).not.toContain("src/half.ts");
    expect((await reader.search("verifySessionToken", { topK: 5 }))[0]?.chunk.filePath).toBe("src/tokens.ts");
    expect(await withStore(stateDir, (store) => store.count())).toBe(1);
  });

  it("at its checkpoint: searches without writing to the store or taking the index lock", async () => {
    const { root, stateDir } = await indexed();
    const version = await withStore(stateDir, (store) => store.checkpoint());
    const touched: string[] = [];
    const watcher = watch(stateDir, (_event, name) => void (name && touched.push(name)));
    try {
      const reader = await engine(root, KEYWORD);
      expect((await reader.search("verifySessionToken", { topK: 5 }))[0]?.chunk.filePath).toBe("src/tokens.ts");
      await new Promise((r) => setTimeout(r, 200)); // the watcher's events arrive on later turns
    } finally {
      watcher.close();
    }
    expect(touched).not.toContain(LOCK_FILE);
    expect(await withStore(stateDir, (store) => store.checkpoint())).toBe(version);
  });
});
