// How `opencode-rag query` shows a hit: the lines that answer, and whether it lies in generated or
// vendored code, on a terminal and as JSON.
import { describe, expect, it } from "vitest";
import { humanResult, toJsonResult } from "../../cli/commands/query.js";
import { chunk } from "../plugin/helpers.js";

describe("query output", () => {
  const code = "func (c *pods) Evict(ctx context.Context) error {\n\treturn nil\n}";

  it("marks a hit in generated or vendored code, and only such a hit", () => {
    const generated = { chunk: chunk("client/typed/pods.go", 1, 3, code, { symbol: "Evict" }), score: 0.8, origin: "generated" as const };
    expect(humanResult(generated, "evict").split("\n")[0]).toBe("client/typed/pods.go:1-3  0.80  function Evict (generated)");
    expect(toJsonResult(generated)).toMatchObject({ filePath: "client/typed/pods.go", origin: "generated" });
    const own = { chunk: chunk("pkg/drain/drain.go", 1, 3, code, { symbol: "Evict" }), score: 0.8 };
    expect(humanResult(own, "evict").split("\n")[0]).toBe("pkg/drain/drain.go:1-3  0.80  function Evict");
    expect(toJsonResult(own)).not.toHaveProperty("origin");
  });

  it("shows the numbered non-blank lines of a packed hit that answer the query, from their declaration", () => {
    const pack = [
      "// Copyright the authors.",
      "",
      "package drain",
      "",
      "func cordon(node string) error {",
      "\treturn mark(node, true)",
      "}",
      "",
      "func evictPods(node string, grace int) error {",
      "\tfor _, p := range podsOn(node) {",
      "\t\tif err := evict(p, grace); err != nil {",
    ].join("\n");
    // Lines 9-11 of the chunk (file lines 19-21), each after its number.
    const hit = { chunk: chunk("pkg/drain/drain.go", 11, 21, pack, { symbol: "evictPods" }), score: 0.7 };
    expect(humanResult(hit, "evict the pods on a node").split("\n").slice(1)).toEqual([
      "    19  func evictPods(node string, grace int) error {",
      "    20  \tfor _, p := range podsOn(node) {",
      "    21  \t\tif err := evict(p, grace); err != nil {",
    ]);
    expect(humanResult(hit, "copyright").split("\n")[1]).toBe("    11  // Copyright the authors.");
  });
});
