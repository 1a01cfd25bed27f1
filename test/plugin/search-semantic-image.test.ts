// search_semantic on an image hit: the stored description is the answer, so it is shown in the
// result itself rather than needing a describe_image call.
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { runSearchSemantic } from "../../opencode-plugin/tools/search-semantic.js";
import { chunk, makeWorkspace, tempRoot } from "./helpers.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe("search_semantic image hits", () => {
  it("include the stored description (kept as the image row's content)", async () => {
    const root = tempRoot();
    roots.push(root);
    const description = "Architecture diagram: the API handler calls the session store, which expires old sessions.";
    const { ws } = makeWorkspace(root, {
      results: [
        {
          chunk: chunk("docs/diagram.png", 1, 1, description, { kind: "image", language: "image", symbol: "diagram.png", context: "image docs/diagram.png" }),
          score: 0.8,
        },
      ],
    });
    const out = await runSearchSemantic(ws, { query: "session store diagram" });
    expect(out).toContain("### 1. docs/diagram.png · image · score 0.80");
    expect(out).toContain(`> ${description}`);
    expect(out).not.toContain("context: image");
  });

  it("prefer a separate description field when the row has one", async () => {
    const root = tempRoot();
    roots.push(root);
    const { ws } = makeWorkspace(root, {
      results: [{ chunk: chunk("docs/a.png", 1, 1, "", { kind: "image", language: "image", symbol: "a.png", description: "A flow chart." }), score: 0.5 }],
    });
    const out = await runSearchSemantic(ws, { query: "flow" });
    expect(out).toContain("> A flow chart.");
  });
});
