import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/.cache holds fetched benchmark repositories with test suites of their own, and
    // test/fixtures sample test files for the chunker (`inventory.test.ts`).
    exclude: ["test/tui/**", "test/web/**", "test/.cache/**", "test/fixtures/**", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: tree-sitter, ONNX and LanceDB each want a core; more workers only thrash.
    maxWorkers: 2,
    env: { LANCEDB_LOG: "error" },
  },
});
