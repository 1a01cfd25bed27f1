import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/.cache holds fetched benchmark repositories with test suites of their own.
    exclude: ["test/tui/**", "test/web/**", "test/.cache/**", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: tree-sitter, ONNX and LanceDB each want a core; more workers only thrash.
    maxWorkers: 2,
    env: { LANCEDB_LOG: "error" },
  },
});
