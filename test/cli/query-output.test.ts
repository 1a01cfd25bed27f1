// How `opencode-rag query` shows a hit in generated or vendored code, on a terminal and as JSON.
import { describe, expect, it } from "vitest";
import { humanResult, toJsonResult } from "../../cli/commands/query.js";
import { chunk } from "../plugin/helpers.js";

describe("query output", () => {
  const code = "func (c *pods) Evict(ctx context.Context) error {\n\treturn nil\n}";

  it("marks a hit in generated or vendored code, and only such a hit", () => {
    const generated = { chunk: chunk("client/typed/pods.go", 1, 3, code, { symbol: "Evict" }), score: 0.8, origin: "generated" as const };
    expect(humanResult(generated).split("\n")[0]).toBe("client/typed/pods.go:1-3  0.80  function Evict (generated)");
    expect(toJsonResult(generated)).toMatchObject({ filePath: "client/typed/pods.go", origin: "generated" });
    const own = { chunk: chunk("pkg/drain/drain.go", 1, 3, code, { symbol: "Evict" }), score: 0.8 };
    expect(humanResult(own).split("\n")[0]).toBe("pkg/drain/drain.go:1-3  0.80  function Evict");
    expect(toJsonResult(own)).not.toHaveProperty("origin");
  });
});
