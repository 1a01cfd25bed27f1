import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/tui/**", "test/web/**", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: tree-sitter, ONNX and LanceDB each want a core; more workers only thrash.
    maxWorkers: 2,
    env: { LANCEDB_LOG: "error" },
  },
});
