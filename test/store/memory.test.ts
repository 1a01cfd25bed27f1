import { describe, expect, test } from "vitest";
import { MemoryVectorStore } from "../../core/store/memory.js";
import { openVectorStore } from "../../core/store/index.js";
import { DIM, axis, row } from "./fixtures.js";
import { storeContract } from "./store-contract.js";

describe("MemoryVectorStore", () => {
  storeContract("memory", async () => new MemoryVectorStore(DIM));

  test("memory:// opens the in-memory store", async () => {
    const store = await openVectorStore({ uri: "memory://", tableName: "chunks", dimension: DIM });
    expect(store).toBeInstanceOf(MemoryVectorStore);
  });

  test("a keyword-only store holds rows without vectors and refuses vector search", async () => {
    const store = new MemoryVectorStore(null);
    await store.add([row("a", "a.ts", null)]);
    expect(await store.count()).toBe(1);
    await expect(store.searchVector(axis(0), 5)).rejects.toThrow(/keyword-only/);
    await expect(store.add([row("b", "b.ts", axis(0))])).rejects.toThrow(/keyword-only/);
  });

  test("rows are copied in: later changes by the caller do not reach the store", async () => {
    const store = new MemoryVectorStore(DIM);
    const r = row("a", "a.ts", axis(0));
    await store.add([r]);
    r.vector![0] = -1;
    r.filePath = "changed.ts";
    expect((await store.getByIds(["a"]))[0].filePath).toBe("a.ts");
    expect((await store.searchVector(axis(0), 1))[0].score).toBeCloseTo(1, 5);
  });
});
