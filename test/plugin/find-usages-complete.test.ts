// find_usages over a real index: the keyword candidates are bounded by the engine
// (retrieval.maxChunks), so a symbol used in more files than that bound must still be listed
// in full, or the answer must say that it may not be.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreDeps } from "../../opencode-plugin/index.js";
import { runFindUsages } from "../../opencode-plugin/tools/find-usages.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { silentLogger } from "../../core/logging/index.js";
import { writeTree } from "./helpers.js";

const USERS = 34;

describe("find_usages on a symbol used in more files than retrieval.maxChunks", () => {
  let root: string;
  let ws: RagWorkspace;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "rag-usages-"));
    const files: Record<string, string> = {
      "opencode-rag.json": JSON.stringify({ logging: { logFilePath: "" }, autoIndex: { enabled: false } }),
      "src/mapping.ts": "export interface Mapping {\n  from: string;\n  to: string;\n}\n",
    };
    for (let i = 0; i < USERS; i++) {
      const n = String(i).padStart(2, "0");
      files[`src/users/user${n}.ts`] = `import { Mapping } from "../mapping";\n\nexport function convert${n}(m: Mapping): string {\n  return m.from + m.to;\n}\n`;
    }
    writeTree(root, files);
    ws = new RagWorkspace(root, coreDeps, { logger: silentLogger });
    const engine = await ws.engine();
    expect(engine.config.retrieval.maxChunks).toBeLessThan(USERS);
    await engine.index();
  }, 60_000);

  afterAll(async () => {
    await ws?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("lists every file that uses it when topK allows", async () => {
    const out = await runFindUsages(ws, { symbolName: "Mapping", topK: 100 });
    expect(out).toContain(`${USERS * 2} reference(s) in ${USERS} file(s)`);
    for (let i = 0; i < USERS; i++) expect(out).toContain(`- src/users/user${String(i).padStart(2, "0")}.ts — 2 (import 1, type 1)`);
    expect(out).not.toMatch(/may be incomplete|stopped after/);
  });

  it("still lists every file when topK shows only a few uses, and says how to see the rest", async () => {
    const out = await runFindUsages(ws, { symbolName: "Mapping", topK: 10 });
    expect(out).toContain(`${USERS * 2} reference(s) in ${USERS} file(s)`);
    for (let i = 0; i < USERS; i++) expect(out).toContain(`- src/users/user${String(i).padStart(2, "0")}.ts — 2`);
    // One use from each of the first ten files, not five files' worth of two.
    expect(out).toContain("Uses 1-10 of 68, taken in turn from each file:");
    expect(out.match(/^### src\/users\//gm)).toHaveLength(10);
    expect(out).toMatch(new RegExp(`${USERS * 2 - 10} more uses in ${USERS} files: call find_usages again with the same arguments and offset=10`));
  });
});
