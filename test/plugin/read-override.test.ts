import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { createRagHooks } from "../../opencode-plugin/server.js";
import { runRead } from "../../opencode-plugin/tools/read-override.js";
import { chunk, configWith, makeWorkspace, tempRoot } from "./helpers.js";

const files = { "src/a.ts": "line one\nline two\nline three\n", "src/b.ts": "export const b = 1;\n" };
const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
function setup(state: Parameters<typeof makeWorkspace>[1] = {}) {
  const root = tempRoot(files);
  roots.push(root);
  return makeWorkspace(root, state);
}

describe("read override", () => {
  it("is registered only when openCode.readOverride is on", async () => {
    const off = setup();
    expect(createRagHooks(off.ws).tool).not.toHaveProperty("read");
    const on = setup({ config: configWith({ openCode: { readOverride: true } }) });
    await on.ws.engine();
    expect(createRagHooks(on.ws).tool).toHaveProperty("read");
  });

  it("returns the whole file with line numbers, then related files above the threshold", async () => {
    const { ws } = setup({
      results: [
        { chunk: chunk("src/a.ts", 1, 3, "line one"), score: 0.9 },
        { chunk: chunk("src/b.ts", 1, 1, "export const b = 1;"), score: 0.8 },
        { chunk: chunk("src/c.ts", 1, 9, "weak"), score: 0.2 },
      ],
    });
    const out = await runRead(ws, { filePath: "src/a.ts" });
    expect(out).toContain("<file>\n00001| line one\n00002| line two\n00003| line three\n</file>");
    expect(out).toContain("Related code elsewhere (opencode-rag):\nsrc/b.ts (typescript, lines 1)");
    expect(out).not.toContain("src/c.ts");
    expect(await runRead(ws, { filePath: "src/a.ts", offset: 1, limit: 1 })).toContain("<file>\n00002| line two\n\n(File has more lines");
  });

  it("still returns the file when retrieval fails", async () => {
    const { ws } = setup({ failSearch: new Error("store unavailable") });
    const out = await runRead(ws, { filePath: "src/b.ts" });
    expect(out).toBe("<file>\n00001| export const b = 1;\n</file>");
  });
});
