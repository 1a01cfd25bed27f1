// The V8 settings the CLI applies to its own process must take effect at run time: a pass's
// memory bound depends on them, and V8 silently ignores some flags once the heap is set up.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const LIBRARY = pathToFileURL(join(repoRoot, "dist", "library.js")).href;

/** Size of V8's young generation after a burst of short-lived allocations, in MB. */
function youngGenerationAfterChurn(tune: boolean): number {
  const script = `
    import v8 from "node:v8";
    ${tune ? `const { tuneOwnProcess } = await import(${JSON.stringify(LIBRARY)}); tuneOwnProcess();` : ""}
    const kept = [];
    for (let i = 0; i < 2e6; i++) { const o = { i, s: "row " + i, parts: [i, i + 1] }; if (i % 200 === 0) kept.push(o); }
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    process.stdout.write(String(young.space_size / 1048576));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  return Number(out);
}

describe("tuneOwnProcess", () => {
  beforeAll(() => ensureBuilt());

  it("keeps the young generation at its starting size through an allocation-heavy stretch", () => {
    const tuned = youngGenerationAfterChurn(true);
    const untuned = youngGenerationAfterChurn(false);
    expect(untuned).toBeGreaterThan(16);
    expect(tuned).toBeLessThanOrEqual(4);
  });
});
