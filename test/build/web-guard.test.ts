// The browser bundle must never reach a Node built-in: the build's guard fails loudly.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error the build script is plain JavaScript
import { noNodeBuiltins } from "../../esbuild.config.mjs";

const dir = mkdtempSync(join(tmpdir(), "rag-web-guard-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bundle(source: string): Promise<void> {
  const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(entry, source);
  await build({ entryPoints: [entry], bundle: true, write: false, platform: "browser", format: "esm", logLevel: "silent", plugins: [noNodeBuiltins] });
}

describe("web build guard", () => {
  it("fails when our code imports a Node built-in, naming it", async () => {
    await expect(bundle('import { readFileSync } from "node:fs"; console.log(readFileSync);')).rejects.toThrow(/Node built-in "node:fs"/);
    await expect(bundle('import path from "path"; console.log(path);')).rejects.toThrow(/Node built-in "path"/);
  });

  it("bundles the core's web entry", async () => {
    await expect(bundle(`export * from ${JSON.stringify(join(__dirname, "../../core/web/index.ts"))};`)).resolves.toBeUndefined();
  });
});
