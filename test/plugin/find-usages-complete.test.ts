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
    for (let i = 0; i < USERS; i++) expect(out).toContain(`### src/users/user${String(i).padStart(2, "0")}.ts`);
    expect(out).not.toMatch(/may be more|stopped at/);
  });

  it("says plainly that the list stops at topK", async () => {
    const out = await runFindUsages(ws, { symbolName: "Mapping", topK: 10 });
    expect(out).toContain("10 reference(s) in 5 file(s)");
    expect(out).toMatch(/stopped at topK=10.*may be more/);
  });
});
