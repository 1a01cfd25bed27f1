import { describe, expect, test } from "vitest";
import { WriteQueue } from "../../core/indexing/write-queue.js";
import { MemoryVectorStore } from "../../core/store/memory.js";
import { row } from "../store/fixtures.js";

/** A real in-memory store whose appends and removals are also listed, in the order they ran. */
function recordingStore() {
  const store = new MemoryVectorStore(8);
  const ops: string[] = [];
  let failNext: Error | null = null;
  return {
    store,
    ops,
    failNextWith: (e: Error) => void (failNext = e),
    async add(rows: Parameters<MemoryVectorStore["add"]>[0]) {
      await new Promise((r) => setTimeout(r, 5));
      if (failNext) {
        const e = failNext;
        failNext = null;
        throw e;
      }
      ops.push(`add ${rows.map((r) => r.id).join(",")}`);
      await store.add(rows);
    },
    async deleteByIds(ids: string[]) {
      ops.push(`delete ${ids.join(",")}`);
      await store.deleteByIds(ids);
    },
  };
}

const rows = (...ids: string[]) => ids.map((id) => row(id, `src/${id}.ts`, null));

describe("WriteQueue", () => {
  test("gathers added rows into appends of the given size, the rest at settle", async () => {
    const s = recordingStore();
    const q = new WriteQueue(s, 3);
    await q.write([], rows("a", "b"));
    expect(s.ops).toEqual([]);
    await q.write([], rows("c", "d"));
    await q.write([], rows("e"));
    await q.settle();
    expect(s.ops).toEqual(["add a,b,c,d", "add e"]);
    expect(await s.store.count()).toBe(5);
  });

  test("a removal writes the rows gathered before it first, so a row removed after it was added is gone", async () => {
    const s = recordingStore();
    const q = new WriteQueue(s, 100);
    await q.write([], rows("a", "b"));
    await q.write(["a"], rows("c"));
    await q.settle();
    expect(s.ops).toEqual(["add a,b", "delete a", "add c"]);
    expect((await s.store.listAll()).map((r) => r.id).sort()).toEqual(["b", "c"]);
  });

  test("a failed append fails the next write or settle; drain forgets what was gathered", async () => {
    const s = recordingStore();
    const q = new WriteQueue(s, 2);
    s.failNextWith(new Error("disk full"));
    await q.write([], rows("a", "b"));
    await expect(q.write([], rows("c", "d"))).rejects.toThrow("disk full");
    await q.write([], rows("e"));
    await q.drain();
    // the queue stays failed: nothing gathered before the failure is written later
    await expect(q.settle()).rejects.toThrow("disk full");
    expect(s.ops).toEqual([]);
    expect(await s.store.count()).toBe(0);
  });
});
