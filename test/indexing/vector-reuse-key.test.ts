// A stored vector is re-used only for exactly the text it was computed from: the same content
// hash and the same description (F14), which is embedded with the chunk.
import { describe, expect, it } from "vitest";
import { MemoryVectorStore } from "../../core/store/memory.js";
import { reuseKey, vectorsOfRows } from "../../core/indexing/vector-reuse.js";
import { DIM, axis, row } from "../store/fixtures.js";

describe("vectors of replaced rows", () => {
  it("are keyed by content hash and description, so a changed description is embedded again", async () => {
    const store = new MemoryVectorStore(DIM);
    await store.add([row("a", "src/a.ts", axis(0)), row("b", "src/a.ts", axis(1), { description: "sums the ledger" }), row("c", "src/a.ts", null)]);
    const found = await vectorsOfRows(store, ["a", "b", "c", "gone"]);
    expect(found.size).toBe(2);
    expect(Array.from(found.get(reuseKey("h-a", ""))!)).toEqual(Array.from(axis(0)));
    expect(found.get(reuseKey("h-b", "sums the ledger"))).toBeDefined();
    expect(found.get(reuseKey("h-b", "totals the ledger"))).toBeUndefined();
    expect(found.get(reuseKey("h-b", ""))).toBeUndefined();
    // A blank description is not embedded: it keys like none.
    expect(reuseKey("h-a", "  ")).toBe(reuseKey("h-a", ""));
  });
});
