// A model that cannot be loaded (a typo in embedding.model) must not silently turn an index
// with vectors into a keyword-only one: the pass stops with one line, the index is kept, and
// `--force` is the explicit way to rebuild without vectors. Real bundled model, real LanceDB.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { modelsDir } from "../../core/paths.js";

const roots: string[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function open(root: string, model?: string): Promise<Engine> {
  const overrides = { logging: { level: "error", logFilePath: "" }, ...(model ? { embedding: { model } } : {}) };
  const engine = await openEngine({ root, overrides });
  engines.push(engine);
  return engine;
}

describe("an unavailable embedding model", () => {
  it("stops the pass and keeps the vectors until a forced rebuild", async () => {
    const root = mkdtempSync(join(tmpdir(), "rag-model-gone-"));
    roots.push(root);
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src", "cart.ts"), "export function cartTotal(items: number[]) {\n  return items.reduce((a, b) => a + b, 0);\n}\n");
    const good = await open(root);
    await good.index();
    expect((await good.status()).dimension).toBeGreaterThan(0);
    await good.close();

    const typo = await open(root, "./models/no-such-model");
    await expect(typo.index()).rejects.toThrow(/no embedding model is available .*not found.*keeps its local\/opencode-rag-code-v2(@[0-9a-f]+)? vectors.*index --force/);
    const status = await typo.status();
    expect(status.dimension).toBeGreaterThan(0);
    expect(status.chunks).toBeGreaterThan(0);
    // Searching still answers (from keywords) while the model is missing.
    expect((await typo.search("cart total", { topK: 3 }))[0]?.chunk.filePath).toBe("src/cart.ts");

    const forced = await typo.index({ force: true });
    expect(forced.rebuildReason).toMatch(/full rebuild was requested/);
    expect((await typo.status()).dimension).toBeNull();
  });

  it("rebuilds when the weights behind the same model id change (a package upgrade)", async () => {
    const root = mkdtempSync(join(tmpdir(), "rag-model-upgrade-"));
    roots.push(root);
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src", "cart.ts"), "export function cartTotal(items: number[]) {\n  return items.reduce((a, b) => a + b, 0);\n}\n");
    const model = join(root, "my-model");
    cpSync(join(modelsDir(), "opencode-rag-code-v2"), model, { recursive: true });
    writeFileSync(join(root, ".gitignore"), "my-model/\n");
    const first = await open(root, model);
    expect((await first.index()).rebuildReason).toBeNull();
    await first.close();

    // Same folder, same id, new weights: here a changed config, as a retrained model ships.
    const cfg = JSON.parse(readFileSync(join(model, "config.json"), "utf8"));
    writeFileSync(join(model, "config.json"), JSON.stringify({ ...cfg, retrained: true }));
    const upgraded = await open(root, model);
    const pass = await upgraded.index();
    expect(pass.rebuildReason).toMatch(/embedding model changed/);
    expect(pass.chunksFromCache).toBe(0);
  });
});
