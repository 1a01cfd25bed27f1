// The line `opencode-rag index` prints after a pass: where the vectors of new chunks came from.
import { describe, expect, it } from "vitest";
import { summaryLine } from "../../cli/format.js";
import { emptySummary } from "../../core/indexing/pass-state.js";

describe("index summary line", () => {
  it("says how many vectors were re-used from the table (bundled model) beside those embedded", () => {
    const line = summaryLine({ ...emptySummary(), filesIndexed: 1, chunksAdded: 7, chunksRemoved: 6, chunksEmbedded: 1, chunksReused: 6, durationMs: 40 });
    expect(line).toContain("+7/-6 chunks, 1 embedded, 6 reused");
    expect(line).not.toContain("from cache");
  });

  it("says how many came from the embedding cache (remote model)", () => {
    const line = summaryLine({ ...emptySummary(), filesIndexed: 1, chunksAdded: 7, chunksEmbedded: 1, chunksFromCache: 6, durationMs: 40 });
    expect(line).toContain("1 embedded, 6 from cache");
    expect(line).not.toContain("reused");
  });
});
