// The local provider under Bun, where OpenCode runs the server plugin: onnxruntime-node and
// transformers.js must load the bundled model there as they do under Node.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const bun = join(here, "..", "..", "node_modules", ".bin", "bun");

describe("local provider under Bun", () => {
  // bun ships with the dev dependencies: in CI its absence is a failure, not a skip.
  it.skipIf(!existsSync(bun) && !process.env.CI)("embeds with the bundled model, normalised, similar texts closer", () => {
    const root = mkdtempSync(join(tmpdir(), "rag-bun-local-"));
    const stdout = execFileSync(bun, [join(here, "local-bun-script.ts"), root], { encoding: "utf8", timeout: 60_000 });
    const out = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(out.reason).toBeNull();
    expect(out.dimension).toBe(256);
    expect(out.norm).toBeCloseTo(1, 4);
    expect(out.close).toBeGreaterThan(out.far);
  });
});
